"""The README's Python example runs as written (a user copies it first)."""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_readme_python_example_runs(tmp_path, monkeypatch, capsys):
    blocks = re.findall(r"```python\n(.*?)```", (REPO / "README.md").read_text(), re.S)
    assert blocks, "README.md has no Python example"
    (tmp_path / "sample_data").symlink_to(REPO / "sample_data")
    monkeypatch.chdir(tmp_path)  # the example writes model.json into the working folder
    namespace = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    assert (tmp_path / "model.json").is_file()
    assert namespace["same"].predict_proba(namespace["data"].X[:5]).shape == (5, 3)
    assert "hamming_loss" in capsys.readouterr().out


def test_readme_audit_example_runs_after_the_first(tmp_path, monkeypatch):
    blocks = re.findall(r"```python\n(.*?)```", (REPO / "README.md").read_text(), re.S)
    first = blocks[0]
    audit_block = next(block for block in blocks if "from mlr_core.audit import" in block)
    (tmp_path / "sample_data").symlink_to(REPO / "sample_data")
    monkeypatch.chdir(tmp_path)
    namespace = {}
    exec(compile(first, "README.md", "exec"), namespace)
    exec(compile(audit_block, "README.md", "exec"), namespace)
    assert (tmp_path / "audit.html").read_text().startswith("<!DOCTYPE html>")
    assert namespace["json_text"].startswith("{") and "rule_id" in namespace["csv_text"]


def test_readme_compact_example_runs_after_the_first(tmp_path, monkeypatch):
    """The scorecard example: its exported Python predicts the compact model's labels."""
    import numpy as np

    from mlr_core.export import python_labels

    blocks = re.findall(r"```python\n(.*?)```", (REPO / "README.md").read_text(), re.S)
    compact_block = next(block for block in blocks if "compact(model, " in block)
    (tmp_path / "sample_data").symlink_to(REPO / "sample_data")
    monkeypatch.chdir(tmp_path)
    namespace = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    exec(compile(compact_block, "README.md", "exec"), namespace)
    small, data = namespace["small"], namespace["data"]
    assert small.rule_set_.rule_count <= 19 and set(namespace["sizes"]) == {10, 20, 50, 100, 200}
    source = (tmp_path / "scorecard.py").read_text()
    assert np.array_equal(python_labels(source, data.X[480:], data.feature_names),
                          small.predict(data.X[480:]))
    assert "CASE WHEN" in (tmp_path / "scorecard.sql").read_text()
    method, value = small.bipartition_
    assert f"# cut: {method} {value!r}\n" in (tmp_path / "scorecard.csv").read_text()
