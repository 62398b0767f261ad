"""Data: a dataset from the data folder set at launch, a sample, an upload (ARFF with its XML, or
CSV) or the generator; its statistics.

Loading builds the new dataset and model first: a bad file shows the loader's message and the
previous dataset and model stay. A model that has trained is not thrown away without asking.
"""

from pathlib import Path

import numpy as np
import streamlit as st

from dashboard import data_folder, data_split, figures, sparse_features, state, ui
from dashboard.markdown_text import literal
from mlr_core import dataset_stats, load_dataset_bytes, make_hypercube_dataset
from mlr_core.data.synthetic import describe_hypercube_dataset
from mlr_core.errors import DatasetError


def parse_labels(text: str):
    """The loader's ``labels``: empty → the file says; ``5`` → last 5 columns; names → those."""
    text = text.strip()
    if not text:
        return None
    if text.lstrip("-").isdigit():
        return int(text)
    return [name.strip() for name in text.split(",") if name.strip()]


def read_upload(files, labels_text: str):
    """One ``.arff``/``.csv`` upload, with the MULAN ``.xml`` that names its labels if given (a
    sparse ARFF kept sparse as a data folder's is, ``sparse_features.as_loaded``)."""
    by_suffix = {Path(f.name).suffix.lower(): f for f in files}
    data = by_suffix.get(".arff") or by_suffix.get(".csv")
    if data is None:
        raise DatasetError("Upload an .arff or .csv file (an .xml only names an ARFF's labels).")
    xml = by_suffix.get(".xml")
    return sparse_features.as_loaded(load_dataset_bytes(
        data.getvalue(), data.name, xml=xml.getvalue() if xml else None,
        labels=parse_labels(labels_text), sparse=True))


def folder_tab(session: state.Session) -> None:
    """The MULAN / MEKA / CSV files of the data folder set at launch."""
    folder = ui.launch_options().data_dir
    if folder is None:
        st.info("No data folder was set at launch. To list your MULAN or MEKA datasets here, "
                "start the app with `streamlit run dashboard/streamlit_app.py -- --data-dir "
                "PATH` (or set `MLR_DATA_DIR=PATH`).", icon=":material/folder_open:")
        return
    found = data_folder.datasets_in(folder)
    if not found:
        st.info(f"No .arff or .csv file in {literal(folder)}.", icon=":material/folder_open:")
        return
    # the dataset loaded, if it is one of these: coming back to this page does not offer another
    current = next((k for k, path in enumerate(found)
                    if path.stem == session.split.dataset.name), 0)
    with st.form("folder_form"):
        path = st.selectbox(f"Datasets in {literal(folder)}", found, index=current,
                            key="folder_dataset", format_func=data_folder.describe)
        if st.form_submit_button("Load dataset", key="load_folder", type="primary"):
            request_load(session, lambda: data_folder.load(path))


def sources(session: state.Session) -> None:
    """The ways to get data; nothing loads until a button is pressed (the generator shows what
    it would make as it is set up)."""
    folder, sample, upload, synthetic = st.tabs(["Data folder", "Sample", "Upload", "Synthetic"])
    with folder:
        folder_tab(session)
    with sample, st.form("sample_form"):
        name = st.selectbox("Sample dataset", ui.sample_names(), key="sample_name")
        if st.form_submit_button("Load sample", key="load_sample"):
            request_load(session, lambda: ui.load_sample(name))
    with upload, st.form("upload_form"):
        files = st.file_uploader(
            "A MULAN dataset: its .arff and its .xml together (select both files at once); "
            "or a MEKA .arff; or a .csv", type=["arff", "xml", "csv"],
            accept_multiple_files=True, key="data_files",
            help="MULAN keeps the label names in the .xml beside the .arff: without it the "
                 "labels are not known. MEKA writes the label count into the .arff itself "
                 "(-C in @relation). A .csv's columns of text become nominal features (rules "
                 "read colour ∈ {ochre, red}), its empty cells missing values.")
        labels = st.text_input(
            "Label columns (optional)", key="label_columns",
            help="Empty: the file says (MULAN XML, MEKA -C, or CSV columns named label:<name>). "
                 "A number k: the last k columns. Or comma-separated column names.")
        if st.form_submit_button("Load upload", key="load_upload"):
            request_load(session, lambda: read_upload(files or [], labels))
    with synthetic:
        generator(session)


@st.cache_data(show_spinner=False, max_entries=32)
def preview(params: dict) -> dict:
    """What the generator would make (the very dataset, same seed): cheap to repeat, cached."""
    return describe_hypercube_dataset(**params)


def generator_params() -> dict:
    """The generator's inputs; Mldatagen's half-edge sizing only when asked for."""
    cols = st.columns(4)
    n_labels = cols[2].number_input("Labels", 2, 30, 4, key="gen_labels",
                                    help="MLR needs at least two labels.")
    params = {
        "n_samples": cols[0].number_input("Instances", 20, 20_000, 600, step=100,
                                          key="gen_samples"),
        "n_relevant": cols[1].number_input("Relevant features", 1, 20, 2, key="gen_relevant",
                                           help="The axes of the label hypercubes."),
        "n_labels": n_labels,
        "n_irrelevant": cols[3].number_input("Irrelevant features", 0, 200, 0,
                                             key="gen_irrelevant"),
        "n_redundant": cols[0].number_input("Redundant features", 0, 50, 0, key="gen_redundant"),
        "label_noise": cols[1].slider("Label noise", 0.0, 0.5, 0.0, 0.01, key="gen_noise"),
        "random_state": cols[3].number_input("Seed", 0, 2**31 - 1, 0, key="gen_seed"),
    }
    auto = min(max(1.5, n_labels / 3), float(n_labels))
    mldatagen = st.toggle("Mldatagen sizing (half-edges instead of a cardinality)",
                          key="gen_mldatagen",
                          help="Mldatagen draws each label hypercube's half-edge in a range; "
                               "the label frequencies then follow from chance.")
    if mldatagen:
        params["min_half_edge"], params["max_half_edge"] = cols[2].slider(
            "Half-edge range", 0.05, 0.5, (0.15, 0.35), 0.01, key="gen_half_edges")
    else:
        params["cardinality"] = cols[2].number_input(
            "Cardinality (mean labels per row)", 0.1, 30.0, value=None, step=0.1,
            key="gen_cardinality", placeholder=f"auto: {auto:.2f}",
            help="Hypercubes are sized so that each label covers cardinality / labels of the "
                 "rows. Empty: max(1.5, labels / 3). Below 1 needs empty labelsets allowed.")
    params["allow_empty"] = st.checkbox("Allow rows with no label", key="gen_empty")
    return params


def generator(session: state.Session) -> None:
    """Set the generator up, see the statistics of what it would make, then load it."""
    params = generator_params()
    with ui.shielded("previewing the generated data"):
        stats = preview(params)  # a bad setting shows its message here, and no empty box
        preview_box(stats)
        if st.button("Generate and load", key="generate", type="primary",
                     icon=":material/add_chart:"):
            request_load(session, lambda: make_hypercube_dataset(**params))


def preview_box(stats: dict) -> None:
    """The statistics and label frequencies of the dataset the generator would make."""
    with st.container(border=True):
        st.markdown("**Preview**: the dataset *Generate and load* would load")
        cols = st.columns(7)
        for col, (label, value) in zip(cols, [
            ("n (instances)", f"{stats['n']:,}"), ("d (features)", f"{stats['d']:,}"),
            ("m (labels)", f"{stats['m']:,}"),
            ("Card", f"{stats['card']:.2f}"), ("Dens", f"{stats['dens']:.3f}"),
            ("DL", f"{stats['dl']:,}"), ("rows with no label", f"{stats['empty']:.0%}"),
        ], strict=True):
            col.metric(label, value)
        frequency = stats["label_frequency"]
        st.plotly_chart(figures.label_frequencies(
            list(frequency), np.array(list(frequency.values())) * stats["n"], stats["n"],
            title="Label frequencies of the preview", height=260), key="preview_frequencies")


def request_load(session: state.Session, make) -> None:
    """Read the data (a bad file shows its message at once), then switch to it, or first ask,
    when that would throw away a model that has trained."""
    with ui.shielded("loading the data"):
        with st.spinner("Reading the data…"):
            dataset = make()
        data_split.check_trainable(dataset)
        ui.wait_for_kernels()  # a new model is started on the data: the engine must be loaded

        def switch() -> str:
            with st.spinner(f"Starting a fresh model on {literal(dataset.name)}…"):
                ui.replace_dataset(session, dataset)
            return (f"Loaded {literal(session.split.dataset.name)}: a fresh model is ready "
                    "to train.")
        ui.replace_model(session, dataset.name, switch)


def statistics(session: state.Session) -> None:
    """The paper's dataset statistics and the label frequencies of the current dataset."""
    data = session.split.dataset
    stats = dataset_stats(data.Y)
    st.subheader(f"Current dataset: {literal(data.name)}")
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
    if sparse_features.stays_sparse(data.X):
        st.caption(sparse_features.stored_text(data.X))
    for note in data.notes:
        st.info(literal(note), icon=":material/info:")
    st.plotly_chart(figures.label_frequencies(data.label_names, data.Y.sum(axis=0), stats["n"]),
                    key="label_frequencies")


def main() -> None:  # a function: what the page draws from does not outlive the run
    st.title("Data")
    session = ui.session()
    sources(session)
    ui.confirm_replacement(session)
    statistics(session)


main()
