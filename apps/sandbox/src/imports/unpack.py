# Unpacks the archive on stdin (.zip, .tar, .tar.gz) into a folder of /workspace. Runs inside a
# short-lived job container (uid 1000, no network, read-only root); the service passes this file
# to `python3 -c`. The archive is hostile: nothing may land outside the folder, whatever its entries
# say. Entries that would leave it (`..`, absolute paths, symlinks pointing out, hard links to
# anything but a file unpacked here) and devices are skipped and reported; every folder on the way
# is opened with O_NOFOLLOW, so no write goes through a symlink; what is written is counted, and
# unpacking stops at the limit (a zip bomb). Prints one JSON report line on stdout; on failure one
# plain line on stderr and exit code 90 (over the limit), 91 (not an archive, damaged), 92 (the
# folder cannot be used).
import json
import os
import queue
import re
import secrets
import stat
import sys
import tarfile
import threading
import zipfile
import zlib

ROOT = "/workspace"
CHUNK = 1 << 20
MAX_REPORTED = 200
MAX_LINK_TARGET = 4096
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW


class Skip(Exception):
    """This entry is not unpacked; the message says why."""


class Stop(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class Report:
    def __init__(self, limit):
        self.limit = limit
        self.files = self.folders = self.links = self.bytes = 0
        self.skipped = []
        self.skipped_total = 0

    def add_bytes(self, n):
        self.bytes += n
        if self.bytes > self.limit:
            raise Stop(90, "the archive unpacks to more than %d MB (CODER_IMPORT_MAX_MB)" % (self.limit >> 20))

    def skip(self, name, reason):
        self.skipped_total += 1
        if len(self.skipped) < MAX_REPORTED:
            shown = "".join(c if c.isprintable() else "?" for c in name)[:300]
            self.skipped.append({"path": shown, "reason": reason})

    def json(self):
        return json.dumps({
            "files": self.files, "folders": self.folders, "links": self.links, "bytes": self.bytes,
            "skipped": self.skipped, "skippedTotal": self.skipped_total,
        })


def parts_of(name):
    """The path components of an entry name, or Skip when it would leave the folder."""
    if "\0" in name:
        raise Skip("a NUL character in the name")
    name = name.replace("\\", "/")
    if name.startswith("/") or re.match(r"^[A-Za-z]:", name):
        raise Skip("an absolute path")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise Skip("leaves the folder (..)")
    if any(len(p.encode("utf-8", "surrogateescape")) > 255 for p in parts):
        raise Skip("a name longer than 255 bytes")
    return parts


def open_dir(base, parts, create):
    """The folder at `parts` under the open folder `base`, never through a symlink."""
    fd = os.dup(base)
    try:
        for part in parts:
            if create:
                try:
                    os.mkdir(part, 0o755, dir_fd=fd)
                except FileExistsError:
                    pass
            try:
                child = os.open(part, DIR_FLAGS, dir_fd=fd)
            except OSError:
                raise Skip("goes through a symlink or a file")
            os.close(fd)
            fd = child
        return fd
    except BaseException:
        os.close(fd)
        raise


def clear_way(dir_fd, name):
    """Removes a file or symlink in the way of a new entry; a folder in the way refuses it."""
    try:
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return
    if stat.S_ISDIR(st.st_mode):
        raise Skip("a folder of that name is in the way")
    os.unlink(name, dir_fd=dir_fd)


class Unpacker:
    def __init__(self, target_fd, target_parts, report):
        self.target = target_fd
        self.target_parts = target_parts
        self.report = report

    def entry(self, name, kind, write=None, mode=0o644, link=None):
        try:
            parts = parts_of(name)
            if not parts:
                return
            if kind == "dir":
                os.close(open_dir(self.target, parts, True))
                self.report.folders += 1
                return
            if kind not in ("file", "symlink", "hardlink"):
                raise Skip("a device or special file")
            parent = open_dir(self.target, parts[:-1], True)
            try:
                clear_way(parent, parts[-1])
                if kind == "file":
                    self.write_file(parent, parts[-1], write, mode)
                elif kind == "symlink":
                    self.symlink(parent, parts, link)
                else:
                    self.hardlink(parent, parts[-1], link)
            finally:
                os.close(parent)
        except Skip as skip:
            self.report.skip(name, str(skip))

    def write_file(self, parent, name, write, mode):
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=parent)
        try:
            write(fd)
            # The permission bits as archived (never setuid, setgid or sticky); none at all (a zip
            # made on Windows) means an ordinary file, and the owner can always read it.
            perms = mode & 0o777 or 0o644
            os.fchmod(fd, perms | 0o400)
        finally:
            os.close(fd)
        self.report.files += 1

    def symlink(self, parent, parts, target):
        if not target or "\0" in target or len(target) > MAX_LINK_TARGET:
            raise Skip("a symlink without a usable target")
        if target.startswith("/"):
            raise Skip("a symlink to an absolute path")
        # Where it points, from /workspace: inside it (the drop folder's neighbours too) or refused.
        where = list(self.target_parts) + parts[:-1]
        for step in target.split("/"):
            if step == "..":
                if not where:
                    raise Skip("a symlink pointing out of the workspace")
                where.pop()
            elif step not in ("", "."):
                where.append(step)
        os.symlink(target, parts[-1], dir_fd=parent)
        self.report.links += 1

    def hardlink(self, parent, name, target):
        try:
            source_parts = parts_of(target or "")
        except Skip:
            raise Skip("a hard link to something outside the folder")
        if not source_parts:
            raise Skip("a hard link to something outside the folder")
        source_dir = open_dir(self.target, source_parts[:-1], False)
        try:
            st = os.stat(source_parts[-1], dir_fd=source_dir, follow_symlinks=False)
            if not stat.S_ISREG(st.st_mode):
                raise Skip("a hard link to something that is not a file unpacked here")
            os.link(source_parts[-1], name, src_dir_fd=source_dir, dst_dir_fd=parent, follow_symlinks=False)
        except FileNotFoundError:
            raise Skip("a hard link to a file that is not in the archive")
        finally:
            os.close(source_dir)
        self.report.files += 1


def copier(source, report):
    def write(fd):
        while True:
            chunk = source.read(CHUNK)
            if not chunk:
                return
            report.add_bytes(len(chunk))
            view = memoryview(chunk)
            while view:
                view = view[os.write(fd, view):]
    return write


class Gunzip:
    """
    A gzip stream inflated by a thread (zlib lets go of the GIL), so files are written while the
    next part is inflated; tarfile's own gzip reading is several times slower. Each step inflates at
    most CHUNK bytes and at most 8 steps wait, so a bomb costs no memory here: the writer's count
    stops it.
    """

    def __init__(self, source):
        self.steps = queue.Queue(maxsize=8)
        self.chunk = b""
        self.pos = 0
        self.done = False
        threading.Thread(target=self.inflate, args=(source,), daemon=True).start()

    def inflate(self, source):
        try:
            member = zlib.decompressobj(31)
            while True:
                data = source.read(CHUNK)
                if not data:
                    break
                while data:
                    out = member.decompress(data, CHUNK)
                    if out:
                        self.steps.put(out)
                    if not member.eof:
                        data = member.unconsumed_tail
                    elif member.unused_data[:2] == b"\x1f\x8b":
                        data = member.unused_data
                        member = zlib.decompressobj(31)
                    else:
                        # What follows the last member (tape padding) is not part of the archive.
                        self.steps.put(b"")
                        return
            self.steps.put(b"")
        except zlib.error as err:
            self.steps.put(err)

    def read(self, size=-1):
        parts = []
        while size != 0:
            if self.pos >= len(self.chunk):
                if self.done:
                    break
                step = self.steps.get()
                if isinstance(step, zlib.error):
                    raise tarfile.ReadError("invalid compressed data (%s)" % step)
                if not step:
                    self.done = True
                    break
                self.chunk, self.pos = step, 0
            take = len(self.chunk) - self.pos if size < 0 else min(size, len(self.chunk) - self.pos)
            parts.append(self.chunk[self.pos:self.pos + take])
            self.pos += take
            if size > 0:
                size -= take
        return b"".join(parts)


def unpack_tar(stream, unpacker):
    seen = 0
    gzipped = stream.peek(2)[:2] == b"\x1f\x8b"
    try:
        with tarfile.open(fileobj=Gunzip(stream) if gzipped else stream, mode="r|" if gzipped else "r|*") as archive:
            for member in archive:
                seen += 1
                if member.isreg():
                    data = archive.extractfile(member)
                    unpacker.entry(member.name, "file", copier(data, unpacker.report), member.mode)
                elif member.isdir():
                    unpacker.entry(member.name, "dir")
                elif member.issym():
                    unpacker.entry(member.name, "symlink", link=member.linkname)
                elif member.islnk():
                    unpacker.entry(member.name, "hardlink", link=member.linkname)
                else:
                    unpacker.entry(member.name, "special")
    except (tarfile.TarError, EOFError, OSError, ValueError) as err:
        if isinstance(err, OSError) and err.errno is not None:
            raise
        if seen == 0:
            raise Stop(91, "this is not a .zip, .tar or .tar.gz archive")
        raise Stop(91, "the archive is damaged after %d entries: %s" % (seen, err))


def unpack_zip(stream, unpacker, root_fd):
    # A zip's index is at its end: keep it in the workspace's own disk until it is read.
    spool = ".coder-unpack-%s.zip" % secrets.token_hex(8)
    fd = os.open(spool, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=root_fd)
    try:
        spooled = Report(unpacker.report.limit)
        copier(stream, spooled)(fd)
        with os.fdopen(os.dup(fd), "rb") as file, zipfile.ZipFile(file) as archive:
            for info in archive.infolist():
                kind_bits = stat.S_IFMT(info.external_attr >> 16)
                if info.is_dir():
                    unpacker.entry(info.filename, "dir")
                elif kind_bits == stat.S_IFLNK:
                    with archive.open(info) as link:
                        target = link.read(MAX_LINK_TARGET + 1).decode("utf-8", "replace")
                    unpacker.entry(info.filename, "symlink", link=target)
                elif kind_bits in (0, stat.S_IFREG):
                    with archive.open(info) as data:
                        unpacker.entry(info.filename, "file", copier(data, unpacker.report), info.external_attr >> 16)
                else:
                    unpacker.entry(info.filename, "special")
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, NotImplementedError, RuntimeError) as err:
        raise Stop(91, "the zip archive is damaged: %s" % err)
    finally:
        os.close(fd)
        os.unlink(spool, dir_fd=root_fd)


def main(argv):
    limit = int(argv[argv.index("--limit") + 1])
    into = argv[argv.index("--into") + 1]
    os.umask(0o022)
    report = Report(limit)
    root_fd = os.open(ROOT, DIR_FLAGS)
    try:
        try:
            into_parts = parts_of(into)
            target_fd = open_dir(root_fd, into_parts, True)
        except Skip as skip:
            raise Stop(92, "cannot unpack into %s: it %s" % (into, skip))
        stream = sys.stdin.buffer
        unpacker = Unpacker(target_fd, into_parts, report)
        if stream.peek(4)[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
            unpack_zip(stream, unpacker, root_fd)
        else:
            unpack_tar(stream, unpacker)
    except Stop as stop:
        sys.stdout.write(report.json() + "\n")
        sys.stderr.write(str(stop) + "\n")
        return stop.code
    except OSError as err:
        sys.stdout.write(report.json() + "\n")
        sys.stderr.write("unpacking failed: %s\n" % (err.strerror or err))
        return 93
    sys.stdout.write(report.json() + "\n")
    return 0


sys.exit(main(sys.argv))
