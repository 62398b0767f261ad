"""What an AppTest's pages offer for download, as the browser would receive it."""

from streamlit.runtime.media_file_manager import MediaFileManager


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


def made_file(made: dict, ending: str) -> str:
    """The text of the one deferred download whose file name ends with ``ending``, made as a
    click would make it."""
    name, = (name for name in made if name.endswith(ending))
    content = made[name]()
    return content.decode() if isinstance(content, bytes) else content
