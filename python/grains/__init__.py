"""grains from Python: a run built from a scenario, stepped, read and changed
between steps, its outputs written when asked (docs/python.md).

    import grains
    sim = grains.Simulation("examples/hourglass.cfg", set={"N_frames": 4}, threads=2)
    sim.advance(500)
    x = sim.positions            # (N, 3) float64

A Simulation is the run `grains run` makes of the same scenario and options:
the same steps give the same bits. The library reports errors as exceptions
(GrainsError and its kinds), with the scenario's file and line where it has
them; Ctrl-C stops a long advance between two steps (KeyboardInterrupt), the
state that of the last step made. A Simulation takes one caller at a
time: a call from another thread while one runs (an advance releases the
GIL) raises BusyError, and any call after close() ClosedError.
"""
import contextlib
import numbers
import os
import sys
import threading
import time as _time

_WHICH = ("make builds grains for Debian's Python, /usr/bin/python3 (this one is %s): run that, or a venv made "
          "from it with --system-site-packages, or build it for this Python with pip from the source's python/ "
          "folder against the installed library (docs/python.md)" % sys.executable)
try:
    import numpy as np
except ImportError as _e:  # (a venv's or pyenv's Python without Debian's numpy)
    raise ImportError("grains needs numpy, which this Python cannot import (%s). %s; on Debian: apt install "
                      "python3-numpy python3-cffi" % (_e, _WHICH)) from _e
try:
    from grains._grains import ffi as _ffi, lib as _lib
except ImportError as _e:  # (the compiled part made for another Python, or not built)
    raise ImportError("grains' compiled part does not load in this Python (%s). %s; build it with make (it needs "
                      "python3-dev, python3-cffi and python3-numpy)" % (_e, _WHICH)) from _e

__all__ = ["Simulation", "Fields", "Wall", "Run", "read_frame", "CHANGEABLE", "GrainsError", "InputError", "GrainsIOError", "UnstableError",
           "ConditionNotMet", "BusyError", "ClosedError"]


class GrainsError(Exception):
    """An error of the library: its message, and where it has one the file
    and line it names (`file`, `line`), the particle (`particle`, else -1)."""

    def __init__(self, message, status=None, file="", line=0, particle=-1):
        super().__init__(message)
        self.status, self.file, self.line, self.particle = status, file, line, particle


class InputError(GrainsError, ValueError):
    """A scenario, option, file or value the library refuses; nothing changed."""


class GrainsIOError(GrainsError, OSError):
    """A file that cannot be read or written."""


class UnstableError(GrainsError, RuntimeError):
    """A step became unstable; the simulation is at its last good state."""


class ConditionNotMet(GrainsError, RuntimeError):
    """run_until's condition did not hold within its max_steps, or a
    settled stage did not settle within its max_time."""


class BusyError(GrainsError, RuntimeError):
    """A Simulation called while another thread's call of it runs: one
    caller at a time (guard a Simulation shared by threads with a lock)."""


class ClosedError(GrainsError, ValueError):
    """A Simulation used after close()."""


def _changeable():
    names, k = [], 0
    while _lib.grains_changeable_name(k) != _ffi.NULL:
        names.append(_ffi.string(_lib.grains_changeable_name(k)).decode())
        k += 1
    return tuple(names)


# The parameters a run may change as it goes (Simulation.set_params; a stage's `set`): the library's list.
CHANGEABLE = _changeable()

_INPUT = {_lib.GRAINS_ERR_PARSE, _lib.GRAINS_ERR_RANGE, _lib.GRAINS_ERR_ARG, _lib.GRAINS_ERR_LIMIT}


def _raise(err):
    """The exception for a filled grains_error."""
    buf = _ffi.new("char[]", 2048)
    _lib.grains_error_format(err, buf, 2048)
    message = _ffi.string(buf).decode("utf-8", "replace")
    file = _ffi.string(err.file).decode("utf-8", "replace")
    status = err.status
    args = (message, status, file, err.line, err.particle)
    if status == _lib.GRAINS_ERR_NOMEM:
        raise MemoryError(message)
    if status == _lib.GRAINS_ERR_IO:
        raise GrainsIOError(*args)
    if status == _lib.GRAINS_ERR_UNSTABLE:
        raise UnstableError(*args)
    if status == _lib.GRAINS_ERR_NOT_MET:
        raise ConditionNotMet(*args)
    if status in _INPUT:
        raise InputError(*args)
    raise GrainsError(*args)


def _call(fn, *args):
    """fn(*args, err), raising on a status other than GRAINS_OK."""
    err = _ffi.new("grains_error *")
    if fn(*args, err) != _lib.GRAINS_OK:
        _raise(err)


@contextlib.contextmanager
def _one_caller(lock, what):
    """The block run by this caller alone: BusyError while another thread's call holds `lock`."""
    if not lock.acquire(blocking=False):
        raise BusyError("this %s is in use by another thread's call: one caller at a time; guard one shared by "
                        "threads with a lock of your own" % what)
    try:
        yield
    finally:
        lock.release()


def _path(path, what):
    """A path as the library takes it (bytes), refused where a NUL would cut it short."""
    p = os.fsencode(path)
    if b"\0" in p:
        raise InputError("%s %r: a path holds no NUL character" % (what, path))
    return p


def _text(value):
    """A value as the scenario's language writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple, np.ndarray)):  # vectors and lists: comma-separated numbers
        return ",".join(repr(float(v)) for v in value)
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _named(set, threads, output, csv):
    """The named values of a run (keys and values as C strings, and what keeps them alive)."""
    pairs = [(str(key), _text(value)) for key, value in (set or {}).items()]
    if threads is not None:
        pairs.append(("threads", str(int(threads))))
    if output is not None:
        pairs.append(("output_dir", os.fsdecode(_path(output, "output"))))
    if csv:
        pairs.append(("csv", "true"))
    for key, value in pairs:
        if "\0" in key or "\0" in value:
            raise InputError("%s=%r: a value holds no NUL character" % (key, value))
    keep = [_ffi.new("char[]", os.fsencode(w)) for pair in pairs for w in pair]
    keys = _ffi.new("const char *[]", keep[0::2] or [_ffi.NULL])
    values = _ffi.new("const char *[]", keep[1::2] or [_ffi.NULL])
    return len(pairs), keys, values, keep


# The bulk fields: (the library's field, columns, numpy dtype).
_FIELDS = {
    "ids": (_lib.GRAINS_BULK_ID, 1, np.int64),
    "uids": (_lib.GRAINS_BULK_UID, 1, np.int64),
    "positions": (_lib.GRAINS_BULK_POSITION, 3, np.float64),
    "velocities": (_lib.GRAINS_BULK_VELOCITY, 3, np.float64),
    "angular_velocities": (_lib.GRAINS_BULK_ANGULAR_VELOCITY, 3, np.float64),
    "radii": (_lib.GRAINS_BULK_RADIUS, 1, np.float64),
    "tags": (_lib.GRAINS_BULK_TAG, 1, np.int64),
    "materials": (_lib.GRAINS_BULK_MATERIAL, 1, np.int64),
}


def _field(name):
    field, width, dtype = _FIELDS[name]

    def get(self):
        with self._use() as sim:
            n = _lib.grains_sim_count(sim)
            out = np.empty((n, width) if width > 1 else (n,), dtype=dtype)
            fn = _lib.grains_sim_get_reals if dtype is np.float64 else _lib.grains_sim_get_ints
            ctype = "double *" if dtype is np.float64 else "int64_t *"
            _call(fn, sim, field, 0, n, _ffi.cast(ctype, _ffi.from_buffer(out, require_writable=True)))
            return out

    def set(self, values):
        if name in ("ids", "uids"):
            raise AttributeError("%s are the library's: they cannot be set" % name)
        with self._use() as sim:
            n = _lib.grains_sim_count(sim)
            shape = (n, width) if width > 1 else (n,)
            a = np.asarray(values)
            if a.shape != shape:
                raise InputError("%s: an array of shape %s for %d particles, not %s" % (name, shape, n, a.shape))
            kind = "f" if dtype is np.float64 else "i"
            if a.dtype.kind not in (("f", "i", "u") if kind == "f" else ("i", "u")):
                raise InputError("%s: %s values, not %s" % (name, "real" if kind == "f" else "integer", a.dtype))
            if kind == "i" and a.size and (a.min() < -2 ** 31 or a.max() >= 2 ** 31):  # (not wrapped to int64)
                raise InputError("%s: %d is beyond 32 bits" % (name, a.max() if a.max() >= 2 ** 31 else a.min()))
            a = np.ascontiguousarray(a, dtype=dtype)
            fn = _lib.grains_sim_set_reals if dtype is np.float64 else _lib.grains_sim_set_ints
            ctype = "const double *" if dtype is np.float64 else "const int64_t *"
            _call(fn, sim, field, 0, n, _ffi.cast(ctype, _ffi.from_buffer(a)))

    doc = "%s of every particle, in id order: numpy (N%s) %s" % (name, ", %d" % width if width > 1 else ",",
                                                                  np.dtype(dtype).name)
    return property(get, set, doc=doc)


def _thermo(name, doc):
    def get(self):
        th = _ffi.new("grains_thermo *")
        self._c(_lib.grains_sim_thermo, th)
        return getattr(th, name)
    return property(get, doc=doc)


# grains_particle as a numpy record, at the offsets the compiler gave its fields.
_PARTICLE = np.dtype({
    "names": ["x", "v", "w", "q", "R", "material", "tag"],
    "formats": [(np.float64, 3), (np.float64, 3), (np.float64, 3), (np.float64, 4), np.float64, np.intc, np.intc],
    "offsets": [_ffi.offsetof("grains_particle", f) for f in ("x", "v", "w", "q", "R", "material", "tag")],
    "itemsize": _ffi.sizeof("grains_particle")})


def _vec(v):
    return np.array([v.x, v.y, v.z])


def _c_vec(a):
    return {"x": float(a[0]), "y": float(a[1]), "z": float(a[2])}


class Wall:
    """Mesh k of a simulation: where it is and what the grains do to it."""

    def __init__(self, sim, k):
        n = sim._c(_lib.grains_sim_mesh_count)
        if not isinstance(k, numbers.Integral) or not 0 <= k < n:
            raise IndexError("wall %r: the run has %d meshes (0 to %d)" % (k, n, n - 1))
        self._owner, self.index = sim, int(k)

    def _get(self):
        w = _ffi.new("grains_wall *")
        self._owner._c(_lib.grains_sim_get_wall, self.index, w)
        return w

    def _set(self, **values):
        w = self._get()
        for key, value in values.items():
            if key in ("shift", "velocity"):
                v = np.asarray(value, dtype=float)
                if v.shape != (3,):
                    raise InputError("wall %d: %s takes 3 values, not %s" % (self.index, key, v.shape))
                setattr(w, key, {"x": v[0], "y": v[1], "z": v[2]})
            else:
                setattr(w, key, float(value))
        self._owner._checked(_lib.grains_sim_set_wall, self.index, w)

    position = property(lambda self: _vec(self._get().shift), lambda self, v: self._set(shift=v),
                        doc="[L] its translation from where its file puts it (settable: a servo or a fixed "
                            "mesh's pose; a prescribed motion puts it back at its pose for the next step)")
    angle = property(lambda self: self._get().angle, lambda self, a: self._set(angle=a),
                     doc="[rad] its turn about its motion's axis")
    velocity = property(lambda self: _vec(self._get().velocity), lambda self, v: self._set(velocity=v),
                        doc="[L/T] of its reference point")
    omega = property(lambda self: self._get().omega, doc="[1/T] about its motion's axis")
    force = property(lambda self: _vec(self._get().force), doc="[ML/T^2] of the grains on it, last step")
    torque = property(lambda self: _vec(self._get().torque), doc="[ML^2/T^2] about its reference point")
    moving = property(lambda self: bool(self._get().moving), doc="whether its motion is not fixed")
    time = property(lambda self: self._get().t_pose, doc="[T] when it was put at this pose (the integrator's "
                                                         "time for the walls: Euler's a step behind the clock)")

    def set_motion(self, type, velocity=(0, 0, 0), axis=(0, 0, 1), point=(0, 0, 0), omega=0.0, amplitude=0.0,
                   frequency=0.0, phase=0.0, table=None, force=0.0, max_speed=0.0, gain=0.0, travel=0.0,
                   load_after=0.0, load_speed=0.0):
        """Moves the mesh by a new motion from now on, starting where it is
        (its pose changes by what the motion does from now; times are the
        run's): type "fixed" (stops it), "linear", "rotate", "vibrate",
        "table" (rows t, x, y, z, angle) or "servo", with the keys of a
        scenario's motion group (docs/scenario.md). A turned mesh keeps its
        axis and point. Checkpoints keep the motion."""
        types = {"fixed": _lib.GRAINS_MOTION_FIXED, "linear": _lib.GRAINS_MOTION_LINEAR,
                 "rotate": _lib.GRAINS_MOTION_ROTATE, "vibrate": _lib.GRAINS_MOTION_VIBRATE,
                 "table": _lib.GRAINS_MOTION_TABLE, "servo": _lib.GRAINS_MOTION_SERVO}
        if type not in types:
            raise InputError("wall %d: motion type %r: one of %s" % (self.index, type, ", ".join(types)))
        m = _ffi.new("grains_motion *")
        m.type = types[type]
        for key, value in (("velocity", velocity), ("axis", axis), ("point", point)):
            v = np.asarray(value, dtype=float)
            if v.shape != (3,):
                raise InputError("wall %d: %s takes 3 values, not %s" % (self.index, key, v.shape))
            setattr(m, key, {"x": v[0], "y": v[1], "z": v[2]})
        for key, value in (("omega", omega), ("amplitude", amplitude), ("frequency", frequency), ("phase", phase),
                           ("force", force), ("max_speed", max_speed), ("gain", gain), ("travel", travel),
                           ("load_after", load_after), ("load_speed", load_speed)):
            setattr(m, key, float(value))
        rows = None
        if table is not None:
            t = np.asarray(table, dtype=float)
            if t.ndim != 2 or t.shape[1] != 5:
                raise InputError("wall %d: a table's rows are t, x, y, z, angle: shape (n, 5), not %s"
                                 % (self.index, t.shape))
            rows = _ffi.new("grains_motion_sample[]", len(t))
            for k, (tk, x, y, z, angle) in enumerate(t):
                rows[k].t, rows[k].x, rows[k].angle = tk, {"x": x, "y": y, "z": z}, angle
            m.table, m.n_table = rows, len(t)
        self._owner._checked(_lib.grains_sim_set_motion, self.index, m)

    def stop(self):
        """Stops the mesh where it is (set_motion("fixed"))."""
        self.set_motion("fixed")

    def remove(self):
        """Removes the mesh from the next step on: no grain meets it, its
        contacts end; its index stays."""
        self._owner._checked(_lib.grains_sim_remove_mesh, self.index)

    def __repr__(self):
        return "<grains.Wall %d at %s, force %s>" % (self.index, self.position, self.force)


class _Walls:
    def __init__(self, sim):
        self._sim = sim

    def __len__(self):
        return self._sim._c(_lib.grains_sim_mesh_count)

    def __getitem__(self, k):
        n = len(self)
        if not isinstance(k, numbers.Integral) or not -n <= k < n:
            raise IndexError("wall %r: the run has %d meshes" % (k, n))
        return Wall(self._sim, k % n)

    def __iter__(self):
        return (self[k] for k in range(len(self)))


_CONTACT_FIELDS = {_lib.GRAINS_CG_COORDINATION, _lib.GRAINS_CG_STRESS_CONTACT, _lib.GRAINS_CG_STRESS}


class Fields:
    """Coarse-grained fields (docs/analysis.md) of a simulation's steps,
    averaged over the steps added, with their standard errors: `cells`
    cells (nx, ny, nz) between `lo` and `hi`; `average`, letters of "xyz"
    averaged along (one cell each: "xy" is a profile in z); a "gaussian" or
    "lucy" kernel of `width` w (at least half a cell along the axes kept);
    `axes`, the grid's three orthonormal axes as rows (None: x, y, z), in
    which lo, hi and every vector and tensor are given. Along an averaged
    axis the grains between lo and hi count; `periodic` (letters among the
    averaged): that span is a periodic box's, and every grain counts.
    `contacts`: whether the steps added bring their contacts (coordination,
    stress_contact, stress); None: as the first step added does (its
    simulation's record_contacts). Every step added has them, or none."""

    def __init__(self, lo, hi, cells, width, average="", kernel="gaussian", axes=None, periodic="", contacts=None):
        g = _ffi.new("grains_cg_grid *")
        lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
        if lo.shape != (3,) or hi.shape != (3,) or len(cells) != 3:
            raise InputError("Fields: lo, hi and cells take 3 values each")
        if kernel not in ("gaussian", "lucy") or any(a not in "xyz" for a in average):
            raise InputError("Fields: kernel 'gaussian' or 'lucy', average letters of 'xyz' (given %r, %r)"
                             % (kernel, average))
        g.lo, g.hi = _c_vec(lo), _c_vec(hi)
        for a in range(3):
            g.n[a] = 1 if "xyz"[a] in average else int(cells[a])
            g.averaged[a] = int("xyz"[a] in average)
            g.periodic[a] = int("xyz"[a] in periodic)
        g.kernel = _lib.GRAINS_CG_LUCY if kernel == "lucy" else _lib.GRAINS_CG_GAUSSIAN
        g.width = float(width)
        if axes is not None:
            e = np.asarray(axes, dtype=float)
            if e.shape != (3, 3):
                raise InputError("Fields: axes are three rows of 3 values")
            for a in range(3):
                g.axis[a] = _c_vec(e[a])
        out = _ffi.new("grains_cg **")
        _call(_lib.grains_cg_create, out, g)
        self._cg = _ffi.gc(out[0], _lib.grains_cg_destroy)
        self._lock = threading.Lock()  # (add and the reads: one caller at a time, as a Simulation's)
        self.cells = tuple(g.n[a] for a in range(3))
        self.averaged = tuple(bool(g.averaged[a]) for a in range(3))
        self._all = [_ffi.string(_lib.grains_cg_name(f)).decode() for f in range(_lib.GRAINS_CG_N_FIELDS)]
        if contacts not in (None, True, False):
            raise InputError("Fields: contacts is True, False or None (as the first step added), not %r"
                             % (contacts,))
        self.contacts = contacts

    @property
    def names(self):
        """The fields it gives: without contacts, not coordination,
        stress_contact and stress."""
        return [n for f, n in enumerate(self._all) if _lib.grains_cg_has_field(self._cg, f) and
                (self.contacts is not False or f not in _CONTACT_FIELDS)]

    def add(self, sim):
        """The simulation's last step into the averages: its grains, and with
        contacts the contacts that step recorded (sim.record_contacts = True
        before advancing)."""
        with _one_caller(self._lock, "Fields"):
            contacts = sim.record_contacts if self.contacts is None else self.contacts
            if contacts and sim.contacts and not sim.record_contacts:
                raise InputError("Fields.add: these fields take contacts, and the last step recorded none: set "
                                 "sim.record_contacts = True before advancing (or make the Fields with "
                                 "contacts=False: density, velocity and kinetic stress need none)")
            with sim._use() as s:
                _call(_lib.grains_cg_add_sim if contacts else _lib.grains_cg_add_sim_grains, self._cg, s)
            self.contacts = contacts

    frames = property(lambda self: _lib.grains_cg_frames(self._cg), doc="the steps averaged over")

    def _values(self, fn, name):
        if name not in self.names:
            why = " (made without contacts)" if name in self._all else ""
            raise InputError("Fields: no field %r%s: there are %s" % (name, why, ", ".join(self.names)))
        f = self._all.index(name)
        n = _lib.grains_cg_cells(self._cg)
        a = np.empty(n * _lib.GRAINS_CG_COMPONENTS)
        with _one_caller(self._lock, "Fields"):
            fn(self._cg, _ffi.cast("double *", _ffi.from_buffer(a)))
        at, width = _lib.grains_cg_offset(f), _lib.grains_cg_width(f)
        v = a.reshape(self.cells[2], self.cells[1], self.cells[0], _lib.GRAINS_CG_COMPONENTS)[..., at:at + width]
        v = v.transpose(2, 1, 0, 3)  # [i, j, k]: x, y, z
        v = v[tuple(0 if avg else slice(None) for avg in self.averaged)]
        return v.reshape(v.shape[:-1] + {1: (), 3: (3,), 9: (3, 3)}[width]).copy()

    def mean(self, name):
        """Field `name` (self.names) per cell, indexed [i, j, k] along the axes
        kept (averaged axes dropped), then its components ((3,) or (3, 3))."""
        return self._values(_lib.grains_cg_mean, name)

    def sem(self, name):
        """The standard error of mean(name) over the steps added (0 with one)."""
        return self._values(_lib.grains_cg_sem, name)

    def centres(self, axis):
        """The cells' centres along `axis` ("x", "y" or "z"), in the grid's axes."""
        a = "xyz".index(axis)
        return np.array([getattr(_lib.grains_cg_centre(self._cg, *[m if b == a else 0 for b in range(3)]), axis)
                         for m in range(self.cells[a])])

    def write_vti(self, path):
        """The fields and their errors as VTK ImageData (ParaView), as grains fields writes them."""
        with _one_caller(self._lock, "Fields"):
            _call(_lib.grains_py_cg_write, self._cg, _path(path, "write_vti"), 1)

    def write_csv(self, path):
        """A row per cell: its centre along the axes kept, each component's mean and error."""
        with _one_caller(self._lock, "Fields"):
            _call(_lib.grains_py_cg_write, self._cg, _path(path, "write_csv"), 0)


class _Progress:
    """A line on stderr, redrawn at most four times a second, while a call
    runs past its first 2 s (the command's display): on where `on` is
    True, or None and stderr is a terminal; wiped when the call ends."""

    def __init__(self, on, what):
        if on is None:
            on = hasattr(sys.stderr, "isatty") and sys.stderr.isatty()
        self.on, self.what, self.shown = bool(on), what, False
        self.start = self.last = _time.perf_counter()

    def show(self, sim, done=None):
        """sim's time, steps and grains; `done` in [0, 1] gives an ETA."""
        now = _time.perf_counter()
        if not self.on or now - self.start < 2 or now - self.last < 0.25:
            return
        self.last = now
        eta = ""
        if done is not None and done > 0:
            left = (now - self.start) * (1 - done) / done
            eta = "   %3.0f%%   ETA %02d:%02d" % (100 * done, left // 60, left % 60)
        line = "  %s: t = %.6g s   step %d   N = %d%s   " % (self.what, _lib.grains_sim_time(sim),
                                                           _lib.grains_sim_steps(sim), _lib.grains_sim_count(sim), eta)
        sys.stderr.write("\r" + line)
        sys.stderr.flush()
        self.shown = max(self.shown, len(line))

    def end(self):
        if self.shown:
            sys.stderr.write("\r%s\r" % (" " * (self.shown + 1)))
            sys.stderr.flush()


class Simulation:
    """A run of a scenario file (None: the default simulation), with `set`
    ({key: value}, as --set KEY=VALUE), `threads` (the results are the same
    for any), `output` (the output folder, as -o) and `csv` (CSV frames
    too), as `grains run FILE --set ... --threads N -o DIR --csv` makes it."""

    def __init__(self, scenario=None, set=None, threads=None, output=None, csv=False):
        n, keys, values, keep = _named(set, threads, output, csv)
        path = _ffi.NULL if scenario is None else _path(scenario, "scenario")
        self._open(_lib.grains_run_open, path, n, keys, values)

    def _open(self, fn, *args):
        self._lock = threading.Lock()
        self._run = self._sim = None
        run = _ffi.new("grains_run **")
        _call(fn, run, *args)
        self._run = _ffi.gc(run[0], _lib.grains_run_close)
        self._sim = _lib.grains_run_sim(self._run)

    @contextlib.contextmanager
    def _use(self):
        """The simulation, to this caller alone while the block runs."""
        lock = self.__dict__.get("_lock")
        if lock is None:
            raise ClosedError("this Simulation was never opened")
        with _one_caller(lock, "Simulation (advance, a getter, ...)"):
            if self._run is None:
                raise ClosedError("this Simulation is closed")
            yield self._sim

    def _c(self, fn, *args):
        """fn(sim, *args), the simulation this caller's alone."""
        with self._use() as sim:
            return fn(sim, *args)

    def _checked(self, fn, *args):
        """fn(sim, *args, err), raising on its status."""
        with self._use() as sim:
            _call(fn, sim, *args)

    def _r(self, fn, *args):
        """fn(run, *args), the run this caller's alone."""
        with self._use():
            return fn(self._run, *args)

    @classmethod
    def resume(cls, path, set=None, threads=None):
        """The run whose checkpoint is `path`, built again from its scenario and
        options (which must not have changed), its outputs going on where they
        stood; `set` may change only N_frames or t_end."""
        self = cls.__new__(cls)
        n, keys, values, keep = _named(set, threads, None, False)
        self._open(_lib.grains_run_resume, _path(path, "resume"), n, keys, values)
        return self

    def close(self):
        """Closes the outputs and frees the simulation (also when it is
        collected); closing a closed one does nothing. BusyError while
        another thread's call runs."""
        if self.__dict__.get("_run") is None:
            return
        with self._use():
            run, self._run, self._sim = self._run, None, None
            _ffi.gc(run, None)  # (no longer closed when collected)
            _lib.grains_run_close(run)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __len__(self):
        return self._c(_lib.grains_sim_count)

    time = property(lambda self: self._c(_lib.grains_sim_time), doc="[T] the simulated time")
    steps = property(lambda self: self._c(_lib.grains_sim_steps), doc="steps made since the run began")
    dt = property(lambda self: self._param("dt")[0], doc="[T] the timestep")
    threads = property(lambda self: self._c(_lib.grains_sim_threads), doc="the threads it runs on")
    output_dir = property(lambda self: os.fsdecode(_ffi.string(self._r(_lib.grains_run_output_dir))),
                          doc="where write_frame and save_checkpoint write (absolute: resolved at creation)")
    frames = property(lambda self: self._r(_lib.grains_run_frames), doc="frames written")

    ids = _field("ids")
    uids = _field("uids")
    positions = _field("positions")
    velocities = _field("velocities")
    angular_velocities = _field("angular_velocities")
    radii = _field("radii")
    tags = _field("tags")
    materials = _field("materials")

    kinetic_energy = _thermo("e_kin", "[ML^2/T^2] translational kinetic energy (thermo.csv's E_kin)")
    rotational_energy = _thermo("e_rot", "[ML^2/T^2] rotational kinetic energy (E_rot)")
    contacts = _thermo("n_contacts", "contacts, particle-particle and particle-mesh, at the last step")
    max_overlap = _thermo("max_overlap", "the largest overlap over 2 R* at the last step")
    bonds = _thermo("n_bonds", "bonds holding")
    broken_bonds = _thermo("n_broken", "bonds broken so far")
    membrane_energy = _thermo("e_membrane", "[ML^2/T^2] the membranes' kinetic and elastic energy")
    lost = _thermo("n_lost", "grains outside the box of the meshes (thermo.csv's lost)")
    lost_energy = _thermo("e_lost", "[ML^2/T^2] the lost grains' share of E_kin + E_rot")

    def _param(self, name):
        """A parameter's values as the run stands (grains_scenario_param)."""
        out = _ffi.new("double[3]")
        with self._use() as sim:
            n = _lib.grains_scenario_param(_lib.grains_sim_params(sim), name.encode(), out, 3)
        return [out[k] for k in range(n)]

    def _get_gravity(self):
        return np.array(self._param("g"))

    def _set_gravity(self, g):
        v = np.asarray(g, dtype=float)
        if v.shape != (3,):
            raise InputError("gravity takes 3 values, not %s" % (v.shape,))
        self._checked(_lib.grains_sim_set_gravity, {"x": v[0], "y": v[1], "z": v[2]})

    gravity = property(_get_gravity, _set_gravity, doc="[L/T^2] gravity; settable (from the next step on)")

    @property
    def params(self):
        """The parameters a run may change (set_params), as a dict."""
        return {name: self._param(name)[0] for name in CHANGEABLE}

    def set_params(self, **values):
        """Friction, restitution or drag changed from the next step on, as a
        stage's `set` changes them: any of CHANGEABLE (mu_s=0.2, e_n=0.3, ...;
        a dynamic value equal to its static one follows it; mu_t does not
        follow mu_s here). Checked as at creation; on a refusal none changes.
        Checkpoints keep them (and gravity): a resume goes on with them."""
        if any("\0" in name for name in values):
            raise InputError("set_params: a name holds no NUL character")
        keep = [_ffi.new("char[]", name.encode()) for name in values]
        names = _ffi.new("const char *[]", keep or [_ffi.NULL])
        vals = _ffi.new("double[]", [float(v) for v in values.values()] or [0.0])
        self._checked(_lib.grains_sim_set_named_params, len(keep), names, vals)

    def open_region(self, k, open=True):
        """Insertion region k adds grains again (open=True) or stops (False)
        from the next step on; one that added its count stays done."""
        self._checked(_lib.grains_sim_spawn_open, int(k), int(bool(open)))

    def thermo(self):
        """Every thermo figure at the last step, as a dict."""
        th = _ffi.new("grains_thermo *")
        self._c(_lib.grains_sim_thermo, th)
        return {name: getattr(th, name) for name in dir(th)}

    def box(self):
        """A sheared box's or one held at a pressure, as a dict: L_z, shift,
        shear_velocity, height_rate, sampled_step (-1: none yet),
        solid_fraction and stress (3 x 3, tension positive) at that sample,
        and the means of the samples since clear_box_means (or the start;
        box.csv's row clears them), mean_solid_fraction and mean_stress,
        over `samples` of them (with none, the last sample's)
        (docs/model.md, "A box held at a pressure")."""
        b = _ffi.new("grains_box_state *")
        self._c(_lib.grains_sim_box, b)
        out = {name: getattr(b, name) for name in ("L_z", "shift", "shear_velocity", "height_rate",
                                                   "sampled_step", "solid_fraction", "samples",
                                                   "mean_solid_fraction")}
        out["stress"] = np.array(list(b.stress)).reshape(3, 3)
        out["mean_stress"] = np.array(list(b.mean_stress)).reshape(3, 3)
        return out

    def clear_box_means(self):
        """Starts box()'s means afresh (as each row of box.csv does)."""
        self._c(_lib.grains_sim_clear_box_means)

    @property
    def walls(self):
        """The meshes, walls[k] for mesh k (as the scenario lists them)."""
        with self._use():
            return _Walls(self)

    @property
    def probes(self):
        """The names of the scenario's probes, in its order."""
        with self._use():
            names, k = [], 0
            while _lib.grains_run_probe_name(self._run, k) != _ffi.NULL:
                names.append(_ffi.string(_lib.grains_run_probe_name(self._run, k)).decode())
                k += 1
            return names

    def probe(self, name):
        """Probe `name`'s counts now, a row per tag and size class (as
        probes.csv's, without the total): a numpy record array of tag,
        size_class, number, mass, momentum (3). A plane: what crossed it
        since the run began (net along its normal); a box: what it holds."""
        names = self.probes
        if name not in names:
            raise InputError("probe %r: the scenario's probes are %s" % (name, names or "none"))
        rows, n = _ffi.new("grains_probe_row **"), _ffi.new("size_t *")
        self._checked(_lib.grains_sim_probe_rows, names.index(name), rows, n)
        out = np.zeros(n[0], dtype=[("tag", np.int64), ("size_class", np.int64), ("number", np.int64),
                                    ("mass", np.float64), ("momentum", np.float64, 3)])
        for k in range(n[0]):
            r = rows[0][k]
            out[k] = (r.tag, r.size_class, r.number, r.mass, _vec(r.momentum))
        _lib.free(rows[0])
        return out

    def _set_record_contacts(self, on):
        self._r(_lib.grains_run_record_contacts, int(bool(on)))
        self._record_contacts = bool(on)

    record_contacts = property(lambda self: getattr(self, "_record_contacts", False), _set_record_contacts,
                               doc="the last step of each advance records its contacts, for Fields.add "
                                   "(the same results; that step is a little slower)")

    progress = property(lambda self: self.__dict__.get("_progress"),
                        lambda self, on: self.__dict__.__setitem__("_progress", None if on is None else bool(on)),
                        doc="a progress line on stderr while advance or run_until runs past 2 s: True, False, "
                            "or None (the default): where stderr is a terminal")

    def advance(self, steps):
        """`steps` steps. Ctrl-C stops between two steps (KeyboardInterrupt);
        an unstable step raises UnstableError at the last good state."""
        self._advance(steps, None)

    def _advance(self, steps, shown):
        """advance(steps), its progress on `shown` (None: its own)."""
        if not isinstance(steps, numbers.Integral) or steps < 0:
            raise InputError("advance(%r): a number of steps, 0 or more" % (steps,))
        total = left = int(steps)
        chunk = 1
        progress = shown or _Progress(self.progress, "advance")
        try:
            with self._use():  # (the whole advance: no other thread's call between its chunks)
                if left > 2 ** 63 - 1 - _lib.grains_sim_steps(self._sim):
                    raise InputError("advance(%d): more steps than a run can count (2^63 - 1 in all)" % left)
                while left > 0:  # in chunks of about 0.1 s, so that Ctrl-C is felt between them
                    k = min(left, chunk)
                    t0 = _time.perf_counter()
                    _call(_lib.grains_run_advance, self._run, k)
                    left -= k
                    if _time.perf_counter() - t0 < 0.05:
                        chunk *= 2
                    progress.show(self._sim, None if shown else 1 - left / total)
        finally:
            if not shown:
                progress.end()

    def run(self):
        """The run to its end as `grains run` runs it, through the library's
        own loop: its stages, a frame every N_steps steps up to N_frames
        (written as write_frame writes them) and a checkpoint every
        checkpoint_every steps. Ctrl-C (SIGINT) or SIGTERM stops it at the end
        of a step with a checkpoint there and raises KeyboardInterrupt
        (resume() goes on from it); an unstable step raises UnstableError and
        leaves the last good state in output_dir/particles_last_good.*."""
        err = _ffi.new("grains_error *")
        main = threading.current_thread() is threading.main_thread()  # (signals reach the main thread alone)
        with self._use():
            status = _lib.grains_run_to_end(self._run, int(main), err)
        if status == _lib.GRAINS_ERR_STOPPED and main:
            buf = _ffi.new("char[]", 2048)
            _lib.grains_error_format(err, buf, 2048)
            raise KeyboardInterrupt(_ffi.string(buf).decode("utf-8", "replace"))
        if status != _lib.GRAINS_OK:
            _raise(err)

    def run_until(self, condition, every=100, max_steps=10 ** 6):
        """Advances `every` steps at a time until condition(self) is true;
        the steps made. ConditionNotMet after max_steps without it."""
        if not callable(condition):
            raise InputError("run_until: the condition must be callable, given %r" % (condition,))
        if not isinstance(every, numbers.Integral) or every < 1:
            raise InputError("run_until: every = %r: a number of steps, 1 or more" % (every,))
        if not isinstance(max_steps, numbers.Integral) or max_steps < 0:
            raise InputError("run_until: max_steps = %r: a number of steps, 0 or more" % (max_steps,))
        made = 0
        progress = _Progress(self.progress, "run_until")
        try:
            while not condition(self):
                if made >= max_steps:
                    raise ConditionNotMet("run_until: the condition did not hold within max_steps = %d (t = %.6g)"
                                          % (max_steps, self.time))
                k = min(every, max_steps - made)
                self._advance(k, progress)
                made += k
        finally:
            progress.end()
        return made

    def add_particles(self, positions, radii, velocities=None, tag=0, material=0):
        """Adds grains at `positions` ((n, 3)) with `radii` ((n,) or one value),
        `velocities` ((n, 3), else at rest), a tag and a material (one value or
        (n,) each); their new ids. Every grain is checked first: a refused one
        adds none."""
        x = self._array("positions", positions, (-1, 3))
        n = x.shape[0]
        R = self._array("radii", np.broadcast_to(np.asarray(radii, dtype=float), (n,)), (n,))
        v = np.zeros((n, 3)) if velocities is None else self._array("velocities", velocities, (n, 3))
        tags = np.broadcast_to(np.asarray(tag), (n,))
        mats = np.broadcast_to(np.asarray(material), (n,))
        if tags.dtype.kind not in "iu" or mats.dtype.kind not in "iu":
            raise InputError("add_particles: tag and material are integers")
        if n and (min(tags.min(), mats.min()) < -2 ** 31 or max(tags.max(), mats.max()) >= 2 ** 31):
            raise InputError("add_particles: a tag or material beyond 32 bits")
        ps = _ffi.new("grains_particle[]", max(n, 1))
        rows = np.frombuffer(_ffi.buffer(ps), dtype=_PARTICLE, count=n)  # (the C array, seen by numpy)
        rows["x"], rows["v"], rows["R"], rows["tag"], rows["material"] = x, v, R, tags, mats
        rows["q"] = (1.0, 0.0, 0.0, 0.0)
        with self._use() as sim:
            first = _lib.grains_sim_count(sim)
            _call(_lib.grains_sim_add_particles, sim, n, ps)
        return np.arange(first, first + n, dtype=np.int64)

    def remove(self, ids):
        """Removes the grains `ids` (integers, each once); the ids above a removed
        one close up (ids stay 0 .. N-1). Their contacts and bonds end. An id
        that does not exist or is named twice removes none."""
        a = np.atleast_1d(np.asarray(ids))
        if a.ndim != 1 or (a.size and a.dtype.kind not in "iu"):
            raise InputError("remove: integer ids in a 1-d array, not %s of %s" % (a.shape, a.dtype))
        with self._use() as sim:
            n = _lib.grains_sim_count(sim)
            if a.size and (a.min() < 0 or a.max() >= n):
                bad = a[(a < 0) | (a >= n)][0]
                raise InputError("remove: particle %d does not exist (ids 0 to %d)" % (bad, n - 1))
            a = np.ascontiguousarray(a, dtype=np.uintp)
            _call(_lib.grains_sim_remove, sim, a.size, _ffi.cast("const size_t *", _ffi.from_buffer(a)))

    def removals(self):
        """The grains the outlets (the scenario's sinks, remove_lost) removed
        since the last frame or checkpoint written, oldest first: a numpy
        record array with step, time, sink (-1: lost), id (its id then), uid
        (its persistent id), tag, x, v (3 each). The run's sinks.csv gets them at its next frame."""
        log = _ffi.new("const grains_removal **")
        with self._use() as sim:
            n = _lib.grains_sim_removals(sim, log)
            out = self._removal_rows(log[0], n)
        return out

    @staticmethod
    def _removal_rows(log, n):
        out = np.zeros(n, dtype=[("step", np.int64), ("time", np.float64), ("sink", np.int64), ("id", np.int64),
                                 ("uid", np.int64), ("tag", np.int64), ("x", np.float64, 3), ("v", np.float64, 3)])
        for k in range(n):
            r = log[k]
            out[k] = (r.step, r.time, r.sink, r.id, r.uid, r.tag, (r.x.x, r.x.y, r.x.z), (r.v.x, r.v.y, r.v.z))
        return out

    def removed(self, sink, tag=None):
        """Grains removed so far by sink `sink` (-1: as lost), with tag `tag`
        (None: any)."""
        return self._c(_lib.grains_sim_removed, int(sink), 0 if tag is None else int(tag), int(tag is None))

    @staticmethod
    def _array(name, values, shape):
        a = np.asarray(values)
        if a.dtype.kind not in "fiu":
            raise InputError("%s: real values, not %s" % (name, a.dtype))
        if a.ndim != len(shape) or any(want not in (-1, got) for want, got in zip(shape, a.shape)):
            raise InputError("%s: an array of shape %s, not %s" % (name, tuple("n" if s < 0 else s for s in shape),
                                                                    a.shape))
        return np.ascontiguousarray(a, dtype=np.float64)

    def write_frame(self):
        """A frame at this step, as grains run writes it (particles, series,
        a row of thermo.csv and the other tables), in output_dir."""
        with self._use():
            _call(_lib.grains_run_write_frame, self._run)

    def save_checkpoint(self, path=None):
        """The whole state and where the outputs stand, in `path` (None:
        output_dir/checkpoint.grains); Simulation.resume(path) goes on from it."""
        where = _ffi.NULL if path is None else _path(path, "save_checkpoint")
        with self._use():
            _call(_lib.grains_run_write_checkpoint, self._run, where)

    def __repr__(self):
        if self.__dict__.get("_run") is None:
            return "<grains.Simulation: closed>"
        return "<grains.Simulation: %d particles, t = %.6g, step %d>" % (len(self), self.time, self.steps)


from grains.results import Run, read_frame  # noqa: E402 (it uses the names above)
