#!/usr/bin/env python3
"""Parses every .vtp, .vti and .pvd in a directory with a strict XML parser and
checks that each data array holds NumberOfPoints (or cells) x components
values, and that the .pvd names files that exist. Binary arrays (base64,
zlib-compressed when the file names vtkZLibDataCompressor) are decoded with
the standard library, header by header, as VTK's reader reads them."""
import base64
import os
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

TYPES = {"Float64": "d", "Float32": "f", "Int64": "q", "Int32": "i", "UInt64": "Q", "UInt32": "I"}


def b64_chars(n_bytes):
    return 4 * ((n_bytes + 2) // 3)


def decode_binary(text, root, vtk_type):
    """The values of a base64 array: its header (UInt64 or UInt32), then
    the data, each encoded on its own."""
    text = "".join(text.split())
    h = 8 if root.get("header_type") == "UInt64" else 4
    order = ">" if root.get("byte_order") == "BigEndian" else "<"
    fmt = order + ("Q" if h == 8 else "I")
    if root.get("compressor") == "vtkZLibDataCompressor":
        n_blocks = struct.unpack(fmt, base64.b64decode(text[:b64_chars(3 * h)])[:h])[0]
        head_len = b64_chars((3 + n_blocks) * h)
        head = base64.b64decode(text[:head_len])
        sizes = [struct.unpack(fmt, head[k * h:(k + 1) * h])[0] for k in range(3 + n_blocks)]
        blob = base64.b64decode(text[head_len:])
        data, at = b"", 0
        for c in sizes[3:]:
            data += zlib.decompress(blob[at:at + c])
            at += c
        expect = sizes[1] * (n_blocks - 1) + (sizes[2] or sizes[1]) if n_blocks else 0
        assert len(data) == expect, f"decompressed {len(data)} bytes, header says {expect}"
    else:
        head_len = b64_chars(h)
        n = struct.unpack(fmt, base64.b64decode(text[:head_len]))[0]
        data = base64.b64decode(text[head_len:])
        assert len(data) == n, f"{len(data)} bytes, header says {n}"
    size = struct.calcsize(TYPES[vtk_type])
    assert len(data) % size == 0, f"{len(data)} bytes is no whole number of {vtk_type}"
    return struct.unpack("%s%d%s" % (order, len(data) // size, TYPES[vtk_type]), data)


def values(arr, root):
    if arr.get("format") == "binary":
        return decode_binary(arr.text or "", root, arr.get("type"))
    return [float(v) for v in (arr.text or "").split()]


def check_vtp(path):
    root = ET.parse(path).getroot()
    piece = root.find("PolyData/Piece")
    n_points = int(piece.get("NumberOfPoints"))
    n_cells = sum(int(piece.get(k)) for k in ("NumberOfVerts", "NumberOfLines", "NumberOfPolys"))
    for section, count in (("Points", n_points), ("PointData", n_points), ("CellData", n_cells)):
        node = piece.find(section)
        if node is None:
            continue
        for arr in node.findall("DataArray"):
            comps = int(arr.get("NumberOfComponents", "1"))
            got = len(values(arr, root))
            assert got == count * comps, f"{path}: {arr.get('Name')} has {got} values, expected {count * comps}"
    for kind in ("Verts", "Lines", "Polys"):
        node = piece.find(kind)
        if node is None:
            continue
        offsets = values(node.find("DataArray[@Name='offsets']"), root)
        assert len(offsets) == int(piece.get("NumberOf" + kind)), f"{path}: {kind} offsets"


def check_vti(path):
    """ImageData: each cell array holds the extent's cells x components."""
    root = ET.parse(path).getroot()
    image = root.find("ImageData")
    e = [int(v) for v in image.get("WholeExtent").split()]
    assert len(image.get("Origin").split()) == 3 and len(image.get("Spacing").split()) == 3, f"{path}: geometry"
    n_cells = (e[1] - e[0]) * (e[3] - e[2]) * (e[5] - e[4])
    for arr in image.find("Piece/CellData").findall("DataArray"):
        comps = int(arr.get("NumberOfComponents", "1"))
        got = len(values(arr, root))
        assert got == n_cells * comps, f"{path}: {arr.get('Name')} has {got} values, expected {n_cells * comps}"


def main(directory):
    found = 0
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if name.endswith(".vtp"):
            check_vtp(path)
            found += 1
        elif name.endswith(".vti"):
            check_vti(path)
            found += 1
        elif name.endswith(".pvd"):
            for ds in ET.parse(path).getroot().iter("DataSet"):
                assert os.path.exists(os.path.join(directory, ds.get("file"))), f"{path}: missing {ds.get('file')}"
            found += 1
    assert found >= 1, "no VTK files found"
    print(f"check_vtk: {found} files well-formed")


if __name__ == "__main__":
    main(sys.argv[1])
