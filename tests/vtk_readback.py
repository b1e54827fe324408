#!/usr/bin/python3
"""Reads a run's particle frames back with VTK's own XML reader (python3-vtk9)
and compares them with the run's TinyDEM CSV frames of the same steps:
binary arrays (compressed or not) hold the exact doubles, ASCII ones agree to
the 10 significant digits they are printed with. Also reads the mesh.
Usage: vtk_readback.py DIR FORMAT; exit 77 (skipped) without VTK."""
import csv
import os
import sys

try:
    import vtk
    from vtk.util.numpy_support import vtk_to_numpy
except ImportError:
    print("vtk_readback: no python3-vtk9, skipped")
    sys.exit(77)


def read(path):
    r = vtk.vtkXMLPolyDataReader()
    r.SetFileName(path)
    r.Update()
    assert r.GetErrorCode() == 0, f"{path}: VTK reader error {r.GetErrorCode()}"
    return r.GetOutput()


def check_contacts(directory, frames, wanted):
    """Each contacts frame (every frame has one when they are wanted, none
    otherwise): a line per contact; on every particle the forces of its
    contacts (f_n + f_t on a, the opposite on b) sum to the frame's
    contact_force, to round-off of the largest contact force."""
    import numpy
    total = 0
    for name in frames:
        path = os.path.join(directory, "contacts" + name[len("particles"):])
        assert os.path.exists(path) == wanted, f"{path}: {'missing' if wanted else 'not asked for'}"
        if not wanted:
            continue
        c, p = read(path), read(os.path.join(directory, name))
        n = c.GetNumberOfLines()
        assert c.GetNumberOfPoints() == 2 * n, f"{path}: {c.GetNumberOfPoints()} points for {n} lines"
        if n == 0:
            continue
        cd = c.GetCellData()
        f = vtk_to_numpy(cd.GetArray("force_normal")) + vtk_to_numpy(cd.GetArray("force_tangential"))
        a, b, kind = (vtk_to_numpy(cd.GetArray(k)) for k in ("a", "b", "kind"))
        assert set(kind) <= {0, 1}, f"{path}: kinds {set(kind)}"
        pd = p.GetPointData()
        assert pd.GetArray("stress").GetNumberOfComponents() == 9, f"{name}: stress is not a 3 x 3 tensor"
        want = vtk_to_numpy(pd.GetArray("contact_force"))
        got = numpy.zeros_like(want)
        numpy.add.at(got, a, f)
        numpy.add.at(got, b[kind == 0], -f[kind == 0])
        scale = numpy.abs(f).max()
        assert numpy.abs(got - want).max() <= 1e-12 * scale, f"{path}: sums differ by {numpy.abs(got - want).max()}"
        coord = numpy.bincount(a, minlength=len(want)) + numpy.bincount(b[kind == 0], minlength=len(want))
        assert (coord == vtk_to_numpy(pd.GetArray("coordination"))).all(), f"{name}: coordination differs"
        total += n
    return total


def main(directory, fmt, wanted):
    tol = 0.0 if fmt != "ascii" else 1e-9
    frames = sorted(f for f in os.listdir(directory) if f.startswith("particles") and f.endswith(".vtp"))
    assert frames, "no particle frames"
    compared = 0
    for name in frames:
        data = read(os.path.join(directory, name))
        with open(os.path.join(directory, name[:-4] + ".csv")) as f:
            rows = list(csv.DictReader(f))
        assert data.GetNumberOfPoints() == len(rows), f"{name}: {data.GetNumberOfPoints()} points, CSV {len(rows)}"
        if not rows:
            continue
        x = vtk_to_numpy(data.GetPoints().GetData())
        pd = data.GetPointData()
        R, v = vtk_to_numpy(pd.GetArray("radius")), vtk_to_numpy(pd.GetArray("velocity"))
        ids = vtk_to_numpy(pd.GetArray("id"))
        assert data.GetNumberOfVerts() == len(rows), f"{name}: {data.GetNumberOfVerts()} vertex cells"
        for i, row in enumerate(rows):
            want = [float(row[k]) for k in ("x", "y", "z", "R", "vx", "vy", "vz")]
            got = list(x[i]) + [R[i]] + list(v[i])
            for w, g in zip(want, got):
                assert abs(w - g) <= tol * abs(w), f"{name}: particle {i}: VTK {g!r}, CSV {w!r}"
            assert ids[i] == i, f"{name}: id {ids[i]} at {i}"
            compared += 1
    contacts = check_contacts(directory, frames, wanted)
    assert contacts > 0 or not wanted, "contacts asked for, and not one read"
    mesh = read(os.path.join(directory, "mesh.vtp"))
    assert mesh.GetNumberOfCells() > 0 and mesh.GetCellData().GetArray("radius"), "mesh.vtp: no cells or radius"
    print(f"vtk_readback ({fmt}): {len(frames)} frames, {compared} particles equal to the CSV frames"
          f"{' to the bit' if tol == 0 else ' to 1e-9'}; mesh.vtp with {mesh.GetNumberOfCells()} cells; "
          f"{contacts} contacts whose forces sum to the frames' contact_force")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], len(sys.argv) > 3 and sys.argv[3] == "contacts")
