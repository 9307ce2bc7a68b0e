"""A content folder as it stood at a git revision, written out to a folder of its own (nothing in it is run)."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from rulekit import registry
from rulekit.content.loader import YAML_SUFFIXES

# git's own limits keep a listing finite; these keep one a content folder could never need from filling a disk.
MOST_FILES = registry.LIMITS["yaml_values"].value
MOST_BYTES = registry.LIMITS["file_size"].value
GIT_TIMEOUT = 60        # seconds; a local git answers in milliseconds


class RevisionError(Exception):
    """The content at a revision cannot be had; the message says why and what to do."""


@dataclass(frozen=True)
class Revision:
    """What was written out: the revision as asked, the commit it names, the folder's path inside the repository."""

    asked: str
    commit: str
    inside: str             # posix path of the content folder inside the repository ('' for its top)

    @property
    def label(self) -> str:
        """How messages and the report name it: HEAD~1:content (3f2a9c1)."""
        return f"{self.asked}:{self.inside or '.'} ({self.commit[:7]})"


def extract(folder: str | Path, rev: str, into: Path) -> Revision:
    """Write the files of `folder` (in a git working tree) as they were at `rev` into `into`.

    Only git's plumbing reads the repository (`rev-parse`, `ls-tree`, `cat-file`): no checkout, no hook, no
    filter or attribute of the repository's is applied, and nothing from the content is run.
    """
    if not rev or rev.startswith("-") or any(ch.isspace() or ord(ch) < 32 for ch in rev):
        raise RevisionError(f"--base {rev!r} is not a git revision: write a commit, a branch or a tag, such as"
                            f" HEAD, HEAD~1, main or v1.2 / 不是一个 git 版本")
    folder = Path(folder)
    if not folder.is_dir():
        raise RevisionError(f"{folder} is not a folder / 不是文件夹: --base compares the content folder of a git"
                            f" repository with the same folder at an earlier revision")
    top = _git(folder, "rev-parse", "--show-toplevel", what=f"{folder} is not inside a git repository / 不在 git 仓库中:"
               f" --base needs the content folder to be in one (or give two folders: rulekit compare OLD NEW)").strip()
    try:
        inside = Path(os.path.realpath(folder)).relative_to(Path(os.path.realpath(top))).as_posix()
    except ValueError:
        raise RevisionError(f"{folder} is not inside the git repository at {top} / 不在该仓库中") from None
    inside = "" if inside == "." else inside
    commit = _git(folder, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}",
                  what=f"the git repository at {top} has no revision {rev!r} / 仓库中没有该版本"
                       f" (`git log --oneline` lists the commits)").strip()
    listing = _git(folder, "ls-tree", "-r", "-l", "-z", "--full-tree", commit, "--", *([inside] if inside else []),
                   what=f"cannot list {inside or 'the repository'} at {rev}")
    entries = [e for e in listing.split("\0") if e]
    if not entries:
        raise RevisionError(f"{inside or 'the repository'} did not exist at {rev} ({commit[:7]}) / 该版本中没有这个文件夹:"
                            f" nothing to compare with")
    if len(entries) > MOST_FILES:
        raise RevisionError(f"{inside or 'the repository'} holds {len(entries):,} files at {rev}, more than a content"
                            f" folder may ({MOST_FILES:,}) / 文件过多")
    into.mkdir(parents=True, exist_ok=True)
    for entry in entries:
        _write(folder, entry, inside, into, rev)
    return Revision(rev, commit, inside)


def _write(folder: Path, entry: str, inside: str, into: Path, rev: str) -> None:
    """One `ls-tree -l` entry (mode type object size<TAB>path) written under `into`, when the loader would read it."""
    meta, _, path = entry.partition("\t")
    mode, kind, obj, size = meta.split()
    rel = PurePosixPath(path).relative_to(inside) if inside else PurePosixPath(path)
    if any(part in ("", ".", "..") for part in rel.parts):
        raise RevisionError(f"{path} at {rev} has a path rulekit cannot write safely / 路径无效")
    if kind != "blob" or (mode != "120000" and rel.suffix.lower() not in YAML_SUFFIXES):
        return      # not a file the loader reads (a picture, a README, a submodule): as in the working folder
    if int(size) > MOST_BYTES:      # refused here as the loader would refuse it, before it is written out
        raise RevisionError(f"{path} at {rev} is {int(size):,} bytes, more than a content file may hold ({MOST_BYTES:,})"
                            f" / 文件过大")
    data = _git_bytes(folder, "cat-file", "blob", obj, what=f"cannot read {path} at {rev}")
    target = into.joinpath(*rel.parts)
    target.parent.mkdir(parents=True, exist_ok=True)
    if mode == "120000":        # a link: written as a link, and the loader follows it only inside the folder
        try:
            os.symlink(os.fsdecode(data), target)
        except OSError as err:
            raise RevisionError(f"{path} at {rev} is a link (symlink) this system cannot make ({err.strerror})"
                                f" / 无法创建符号链接") from None
    else:
        target.write_bytes(data)


def _git(folder: Path, *args: str, what: str) -> str:
    return _git_bytes(folder, *args, what=what).decode("utf-8", "surrogateescape")


def _git_bytes(folder: Path, *args: str, what: str) -> bytes:
    git = shutil.which("git")
    if git is None:
        raise RevisionError("--base needs git, which is not installed here / 需要安装 git;"
                            " or give two folders: rulekit compare OLD NEW")
    try:
        done = subprocess.run([git, "-C", str(folder), *args], capture_output=True, timeout=GIT_TIMEOUT, check=False,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError) as err:
        raise RevisionError(f"{what} (git: {err})") from None
    if done.returncode != 0:
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RevisionError(what + (f" (git: {detail[-1]})" if detail else ""))
    return done.stdout
