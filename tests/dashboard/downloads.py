"""What an AppTest's pages offer for download, as the browser would receive it."""

from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage


def kept_downloads(monkeypatch) -> dict:
    """A dict filled, from now on, with each file a page offers for download (made when drawn,
    not on a click), by file name."""
    files = {}
    keep_id = MemoryMediaFileStorage.load_and_get_id

    def keep(self, path_or_data, mimetype, kind, filename=None):
        file_id = keep_id(self, path_or_data, mimetype, kind, filename)
        files[filename] = self._files_by_id[file_id].content
        return file_id

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", keep)
    return files
