"""Data: pick a sample, upload ARFF (+ XML) or CSV, or generate a synthetic dataset; its statistics.

Loading builds the new dataset and model first: a bad file shows the loader's message and the
previous dataset and model stay.
"""

from pathlib import Path

import streamlit as st

from mlr_core import dataset_stats, load_dataset_bytes, make_hypercube_dataset
from mlr_core.errors import DatasetError
from mlr_dashboard import figures, state, ui


def parse_labels(text: str):
    """The loader's ``labels``: empty → the file says; ``5`` → last 5 columns; names → those."""
    text = text.strip()
    if not text:
        return None
    if text.lstrip("-").isdigit():
        return int(text)
    return [name.strip() for name in text.split(",") if name.strip()]


def read_upload(files, labels_text: str):
    """One ``.arff``/``.csv`` upload, with the MULAN ``.xml`` that names its labels if given."""
    by_suffix = {Path(f.name).suffix.lower(): f for f in files}
    data = by_suffix.get(".arff") or by_suffix.get(".csv")
    if data is None:
        raise DatasetError("Upload an .arff or .csv file (an .xml only names an ARFF's labels).")
    xml = by_suffix.get(".xml")
    return load_dataset_bytes(data.getvalue(), data.name, xml=xml.getvalue() if xml else None,
                              labels=parse_labels(labels_text))


def sources(session: state.Session) -> None:
    """The three ways to get data, each a form so nothing loads until its button is pressed."""
    sample, upload, synthetic = st.tabs(["Sample", "Upload", "Synthetic"])
    with sample, st.form("sample_form"):
        name = st.selectbox("Sample dataset", ui.sample_names(), key="sample_name")
        if st.form_submit_button("Load sample", key="load_sample"):
            load(session, lambda: ui.load_sample(name))
    with upload, st.form("upload_form"):
        files = st.file_uploader("ARFF (+ its MULAN XML) or CSV", type=["arff", "xml", "csv"],
                                 accept_multiple_files=True, key="data_files")
        labels = st.text_input(
            "Label columns (optional)", key="label_columns",
            help="Empty: the file says (MULAN XML, MEKA -C, or CSV columns named label:<name>). "
                 "A number k: the last k columns. Or comma-separated column names.")
        if st.form_submit_button("Load upload", key="load_upload"):
            load(session, lambda: read_upload(files or [], labels))
    with synthetic, st.form("synthetic_form"):
        cols = st.columns(4)
        params = {
            "n_samples": cols[0].number_input("Instances", 20, 100_000, 600, step=100),
            "n_relevant": cols[1].number_input("Relevant features", 1, 50, 2),
            "n_labels": cols[2].number_input("Labels", 2, 30, 4,
                                             help="MLR needs at least two labels."),
            "n_irrelevant": cols[3].number_input("Irrelevant features", 0, 200, 0),
            "n_redundant": cols[0].number_input("Redundant features", 0, 50, 0),
            "label_noise": cols[1].slider("Label noise", 0.0, 0.5, 0.0, 0.01),
            "min_half_edge": cols[2].slider("Min half edge", 0.05, 0.5, 0.15, 0.01),
            "max_half_edge": cols[3].slider("Max half edge", 0.05, 0.5, 0.35, 0.01),
            "random_state": cols[0].number_input("Seed", 0, 2**31 - 1, 0),
        }
        if st.form_submit_button("Generate", key="generate"):
            load(session, lambda: make_hypercube_dataset(**params))


def load(session: state.Session, make) -> None:
    """Make a dataset and switch to it; an error message leaves the session as it was."""
    with ui.shielded("loading the data"):
        session.set_dataset(make())
        st.success(f"Loaded {session.dataset.name}: a fresh model is ready to train.")


def statistics(session: state.Session) -> None:
    """The paper's dataset statistics and the label frequencies of the current dataset."""
    data = session.dataset
    stats = dataset_stats(data.Y)
    st.subheader(f"Current dataset: {data.name}")
    cols = st.columns(7)
    for col, (label, value) in zip(cols, [
        ("n (instances)", f"{stats['n']:,}"), ("d (features)", f"{data.X.shape[1]:,}"),
        ("m (labels)", f"{stats['m']:,}"), ("Card", f"{stats['card']:.3f}"),
        ("Dens", f"{stats['dens']:.3f}"), ("DL", f"{stats['dl']:,}"),
        ("PDL", f"{stats['pdl']:.3f}"),
    ], strict=True):
        col.metric(label, value)
    st.caption("Card: mean labels per instance · Dens = Card / m · DL: distinct labelsets · "
               "PDL = DL / n.")
    for note in data.notes:
        st.info(note, icon=":material/info:")
    st.plotly_chart(figures.label_frequencies(data.label_names, data.Y.sum(axis=0), stats["n"]),
                    key="label_frequencies")


st.title("Data")
session = ui.session()
sources(session)
statistics(session)
