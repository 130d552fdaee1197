"""What the course's JupyterLab may save: never a lesson git tracks, and only live widgets.

`make lab`, `make instructor` and Binder serve the repository root, so the course's own
lessons (notebooks/, which `make test` compares cell by cell) are one click away. Running
one and letting JupyterLab autosave would write outputs and widget state into it. So the
server says that every notebook git tracks is read-only: JupyterLab opens it with a
"read-only" mark, does not autosave it, and offers "Save As" instead. The copies the lab
opens (student/, instructor/) are untracked and saved as usual.

Every save also goes through ``notebook_views.keep_displayed_widget_state``: the notebook
keeps the state of the widgets its outputs show, not of every widget the kernel made.

binder/postBuild names it as the server's ``ServerApp.contents_manager_class`` in the
environment's Jupyter config (widgets/lab_settings/jupyter_server_config.json).
"""

import pathlib
import subprocess

from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager
from tornado.web import HTTPError

from .notebook_views import keep_displayed_widget_state


def tracked_notebooks(root):
    """The notebooks git tracks under ``root``, as paths relative to it (``/``-separated);
    none when ``root`` is not in a git checkout or git is missing."""
    try:
        listed = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z", "--", "*.ipynb"],
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return frozenset()
    return frozenset(name for name in listed.decode().split("\0") if name)


class LessonContentsManager(AsyncLargeFileManager):
    """Jupyter's file manager, with git-tracked notebooks read-only and saved widget state
    trimmed to the widgets on display."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._tracked = None  # read from git on first use: root_dir is set by then
        self.register_pre_save_hook(_keep_displayed_widget_state)

    def tracked(self, path):
        """Whether the API path ``path`` is a notebook git tracks."""
        if self._tracked is None:
            self._tracked = tracked_notebooks(pathlib.Path(self.root_dir))
        return path.strip("/") in self._tracked

    def is_writable(self, path):
        return not self.tracked(path) and super().is_writable(path)

    async def save(self, model, path=""):
        if self.tracked(path):
            # Ctrl+S on a read-only notebook never gets here; another client might.
            raise HTTPError(
                403,
                f"{path} is one of the course's lessons, tracked by git and checked by "
                "`make test`, so this lab does not save over it. Use File > Save Notebook "
                "As... to keep your work, or work in student/ (make lab) or instructor/ "
                "(make instructor).",
            )
        return await super().save(model, path)


def _keep_displayed_widget_state(model, **kwargs):
    """Pre-save hook: a notebook keeps only the widget state its outputs show."""
    if model.get("type") == "notebook" and isinstance(model.get("content"), dict):
        keep_displayed_widget_state(model["content"])
