"""A run's results read back from its output folder (docs/python.md):
frames as dicts of numpy arrays, tables as numpy record arrays.

    run = grains.Run("output/hopper")
    x = run.frame(-1)["position"]      # the last frame's (N, 3) positions
    th = run.thermo                    # thermo.csv: th["time"], th["E_kin"], ...

Every file is read as untrusted input: the library's own VTK reader checks
counts, sizes, base64 and zlib blocks, and a table whose rows do not match
its header is refused (InputError naming the file and line).
"""
import os
import re

import numpy as np

from grains import InputError, GrainsIOError, _call, _ffi, _lib, _path

_PARTS = {_lib.GRAINS_FRAME_VERTS: "verts", _lib.GRAINS_FRAME_LINES: "lines", _lib.GRAINS_FRAME_STRIPS: "strips",
          _lib.GRAINS_FRAME_POLYS: "polys"}
# A CSV frame's columns, named as the VTK frame names them.
_CSV_FRAME = (("position", ("x", "y", "z")), ("radius", ("R",)), ("velocity", ("vx", "vy", "vz")),
              ("orientation", ("q0", "q1", "q2", "q3")), ("angular_velocity", ("wx", "wy", "wz")),
              ("material", ("material",)), ("tag", ("tag",)), ("uid", ("uid",)))
_INTEGER_COLUMNS = {"step", "N", "contacts", "mesh", "sink", "id", "uid", "tag", "material", "size_class", "number",
                    "bonds", "broken", "lost", "stage", "frame"}


def _vtk(path):
    """The arrays of a VTK PolyData file, by name: the points' as
    "position", cell connectivity as "polys_connectivity" (and so on)."""
    f = _ffi.new("grains_frame **")
    _call(_lib.grains_frame_read, _path(path, "read_frame"), f)
    frame = _ffi.gc(f[0], _lib.grains_frame_free)
    out = {}
    for k in range(_lib.grains_frame_array_count(frame)):
        a = _lib.grains_frame_get(frame, k)
        name = _ffi.string(a.name).decode("utf-8", "replace")
        if a.part == _lib.GRAINS_FRAME_POINTS:
            name = "position"
        elif a.part in _PARTS:
            name = _PARTS[a.part] + "_" + name
        values = np.frombuffer(_ffi.buffer(a.values, 8 * a.tuples * a.components), dtype=np.float64).copy()
        if a.integer:
            values = values.astype(np.int64)
        out[name] = values.reshape(a.tuples, a.components) if a.components > 1 else values
    if "position" not in out:
        out["position"] = np.zeros((0, 3))
    return out


def _number(cell):
    try:
        return float(cell)
    except ValueError:
        return None


def _column_type(name, cells):
    """A column's type: int64 for a count or label, float64 for a number,
    text where a cell is not a number (probes.csv's probe, its "all")."""
    values = [_number(c) for c in cells]
    if any(v is None for v in values):
        return "U%d" % max([1] + [len(c) for c in cells])
    if name in _INTEGER_COLUMNS or re.fullmatch(r"sink\d+(_tag-?\d+)?|lost_removed(_tag-?\d+)?", name):
        return np.int64
    return np.float64


def _table(path):
    """A CSV table grains wrote: a header of names, then rows of as many
    cells; a numpy record array (an empty one: no rows)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise GrainsIOError("%s: %s" % (path, e.strerror or e)) from e
    if not lines or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(,[A-Za-z_][A-Za-z0-9_]*)*", lines[0]):
        raise InputError("%s:1: expected a header of column names" % path, file=path, line=1)
    names = lines[0].split(",")
    if len(set(names)) != len(names):
        raise InputError("%s:1: a column named twice" % path, file=path, line=1)
    rows = []
    for k, line in enumerate(lines[1:], 2):
        if line.strip():
            cells = line.split(",")
            if len(cells) != len(names):
                raise InputError("%s:%d: %d cells, the header names %d" % (path, k, len(cells), len(names)),
                                 file=path, line=k)
            rows.append(cells)
    columns = list(zip(*rows)) if rows else [()] * len(names)
    out = np.zeros(len(rows), dtype=[(n, _column_type(n, c)) for n, c in zip(names, columns)])
    for n, c in zip(names, columns):
        if out.dtype[n].kind == "U":
            out[n] = c
        elif c:
            v = np.array([float(x) for x in c])
            if out.dtype[n].kind == "i" and not np.all((v == np.round(v)) & (np.abs(v) < 2.0 ** 63)):
                raise InputError("%s: column %s holds a value that is not a whole number" % (path, n), file=path)
            out[n] = v
    return out


def _csv_frame(path):
    """A CSV frame (x,y,z,R,vx,...): the same names as a VTK frame's."""
    t = _table(path)
    out = {}
    for name, cols in _CSV_FRAME:
        if all(c in t.dtype.names for c in cols):
            v = np.column_stack([t[c] for c in cols]) if len(cols) > 1 else t[cols[0]].copy()
            out[name] = v
    if "position" not in out:
        raise InputError("%s: not a frame of grains (no x, y, z columns)" % path, file=path)
    return out


def read_frame(path, k=-1):
    """A frame as a dict of numpy arrays by name ("position" (N, 3),
    "radius", "velocity", "id", "uid", "tag", ...): the file at `path` (a
    .vtp, of particles, meshes, membranes or contacts, or a CSV frame), or
    frame `k` of the run in folder `path` (negative: from the last)."""
    if os.path.isdir(path):
        return Run(path).frame(k)
    if str(path).endswith(".csv"):
        return _csv_frame(path)
    return _vtk(path)


def _pvd(path):
    """A ParaView collection's files and times, in its order."""
    import xml.etree.ElementTree as ET
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        raise InputError("%s: not a ParaView collection (%s)" % (path, e), file=path) from e
    files, times = [], []
    for d in root.iter("DataSet"):
        name = d.get("file", "")
        if not name or os.path.isabs(name) or ".." in name.split("/"):
            raise InputError("%s: a data set outside its folder (%r)" % (path, name), file=path)
        files.append(name)
        try:
            times.append(float(d.get("timestep", "nan")))
        except ValueError:
            raise InputError("%s: a timestep that is not a number" % path, file=path) from None
    return files, np.array(times)


class Run:
    """The results of a run in folder `dir` (a command's or a
    Simulation's output): its frames, in order, and its tables. Read
    when asked, so that a run still going shows its frames so far."""

    def __init__(self, dir):
        if not os.path.isdir(dir):
            raise GrainsIOError("%s: no such folder" % dir)
        self.dir = os.path.abspath(dir)

    def _file(self, name):
        return os.path.join(self.dir, name)

    def _series(self, stem):
        """The series' files and times: from stem.pvd, else the CSV frames."""
        pvd = self._file(stem + ".pvd")
        if os.path.exists(pvd):
            return _pvd(pvd)
        names = sorted(n for n in os.listdir(self.dir) if re.fullmatch(stem + r"\d{6}\.csv", n))
        th = self.thermo if os.path.exists(self._file("thermo.csv")) else None
        times = th["time"][:len(names)] if th is not None and len(th) >= len(names) else np.full(len(names), np.nan)
        return names, np.asarray(times, dtype=float)

    @property
    def times(self):
        """[T] each frame's time."""
        return self._series("particles")[1]

    def __len__(self):
        return len(self._series("particles")[0])

    def _pick(self, stem, k):
        files, _ = self._series(stem)
        if not isinstance(k, (int, np.integer)) or not -len(files) <= k < len(files):
            raise IndexError("frame %r: the run in %s has %d frames" % (k, self.dir, len(files)))
        return read_frame(self._file(files[k]))

    def frame(self, k=-1):
        """Frame k's particles (read_frame's dict); negative counts from the last."""
        return self._pick("particles", k)

    def __iter__(self):
        for k in range(len(self)):
            yield self.frame(k)

    def mesh(self, k=-1):
        """The meshes as frame k shows them (where they were then)."""
        if os.path.exists(self._file("mesh.pvd")):
            return self._pick("mesh", k)
        return read_frame(self._file("mesh.vtp"))

    def contacts(self, k=-1):
        """Frame k's contacts (written with --contacts, or contacts = true)."""
        return self._pick("contacts", k)

    def table(self, name):
        """A table of the run (thermo, walls, sinks, probes, triaxial,
        friction) as a numpy record array, a row per line."""
        return _table(self._file(name + ".csv"))

    thermo = property(lambda self: self.table("thermo"), doc="thermo.csv: a row per frame")
    walls = property(lambda self: self.table("walls"), doc="walls.csv: a row per mesh and frame")
    sinks = property(lambda self: self.table("sinks"), doc="sinks.csv: a row per grain removed")
    probes = property(lambda self: self.table("probes"), doc="probes.csv: a row per probe, tag, class and frame")

    def __repr__(self):
        return "<grains.Run %s: %d frames>" % (self.dir, len(self))
