"""Why the system refused a file, in the interface's language: a full disk, no permission, a read-only disk…

The system's own text (strerror) is English on most desks, and `str(OSError)` adds the error number and the full
path; a message that names its file needs only the reason.
"""

from __future__ import annotations

import errno

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

FILE_ERRORS = "FileErrors"  # the translation context of the reasons below

_REASONS = {
    errno.ENOSPC: QT_TRANSLATE_NOOP("FileErrors", "the disk is full"),
    errno.EDQUOT: QT_TRANSLATE_NOOP("FileErrors", "the disk quota is used up"),
    errno.EFBIG: QT_TRANSLATE_NOOP("FileErrors", "the file is too large for this disk"),
    errno.EACCES: QT_TRANSLATE_NOOP("FileErrors", "permission denied"),
    errno.EPERM: QT_TRANSLATE_NOOP("FileErrors", "permission denied"),
    errno.EROFS: QT_TRANSLATE_NOOP("FileErrors", "the disk is read-only"),
    errno.ENOENT: QT_TRANSLATE_NOOP("FileErrors", "the folder does not exist"),
    errno.ENOTDIR: QT_TRANSLATE_NOOP("FileErrors", "part of the path is not a folder"),
    errno.EISDIR: QT_TRANSLATE_NOOP("FileErrors", "there is a folder of that name"),
    errno.ENAMETOOLONG: QT_TRANSLATE_NOOP("FileErrors", "the name is too long"),
    errno.EIO: QT_TRANSLATE_NOOP("FileErrors", "the disk reported an input/output error"),
    errno.EEXIST: QT_TRANSLATE_NOOP("FileErrors", "a file of that name is in the way"),
}


def os_error_text(error: OSError) -> str:
    """The reason of an OSError, translated for the common ones (the system's text for the rest)."""
    reason = _REASONS.get(error.errno) if error.errno is not None else None
    if reason is not None:
        return QCoreApplication.translate(FILE_ERRORS, reason)
    return error.strerror or str(error)
