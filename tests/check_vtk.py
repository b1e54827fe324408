#!/usr/bin/env python3
"""Parses every .vtp and .pvd in a directory with a strict XML parser and
checks that each data array holds NumberOfPoints (or cells) x components
values, and that the .pvd names files that exist."""
import os
import sys
import xml.etree.ElementTree as ET

def check_vtp(path):
    piece = ET.parse(path).getroot().find("PolyData/Piece")
    n_points = int(piece.get("NumberOfPoints"))
    n_cells = sum(int(piece.get(k)) for k in ("NumberOfVerts", "NumberOfLines", "NumberOfPolys"))
    for section, count in (("Points", n_points), ("PointData", n_points), ("CellData", n_cells)):
        node = piece.find(section)
        if node is None:
            continue
        for arr in node.findall("DataArray"):
            comps = int(arr.get("NumberOfComponents", "1"))
            values = (arr.text or "").split()
            assert len(values) == count * comps, f"{path}: {arr.get('Name')} has {len(values)} values, expected {count * comps}"
            for v in values:
                float(v)
    for kind in ("Verts", "Lines", "Polys"):
        node = piece.find(kind)
        if node is None:
            continue
        offsets = node.find("DataArray[@Name='offsets']").text.split()
        assert len(offsets) == int(piece.get("NumberOf" + kind)), f"{path}: {kind} offsets"

def main(directory):
    found = 0
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if name.endswith(".vtp"):
            check_vtp(path)
            found += 1
        elif name.endswith(".pvd"):
            for ds in ET.parse(path).getroot().iter("DataSet"):
                assert os.path.exists(os.path.join(directory, ds.get("file"))), f"{path}: missing {ds.get('file')}"
            found += 1
    assert found >= 2, "no VTK files found"
    print(f"check_vtk: {found} files well-formed")

if __name__ == "__main__":
    main(sys.argv[1])
