"""What an AppTest's pages offer for download, as the browser would receive it."""

from streamlit.runtime.media_file_manager import MediaFileManager
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


def deferred_downloads(monkeypatch) -> dict:
    """The download buttons' deferred contents, by file name, as the pages make them: each
    value makes the file's bytes when called (AppTest never presses a download)."""
    made = {}
    keep_deferred = MediaFileManager.add_deferred

    def keep(self, make, mimetype, coordinates, file_name=None, element_id=""):
        made[file_name] = make
        return keep_deferred(self, make, mimetype, coordinates, file_name=file_name,
                             element_id=element_id)

    monkeypatch.setattr(MediaFileManager, "add_deferred", keep)
    return made
