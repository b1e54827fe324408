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


def main(directory, fmt):
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
    mesh = read(os.path.join(directory, "mesh.vtp"))
    assert mesh.GetNumberOfCells() > 0 and mesh.GetCellData().GetArray("radius"), "mesh.vtp: no cells or radius"
    print(f"vtk_readback ({fmt}): {len(frames)} frames, {compared} particles equal to the CSV frames"
          f"{' to the bit' if tol == 0 else ' to 1e-9'}; mesh.vtp with {mesh.GetNumberOfCells()} cells")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
