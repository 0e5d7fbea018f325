"""toolkit.harness.binio: raw .bin reading, writing and case loading."""
import numpy as np
import pytest

from operators.kv_rms_norm_rope_cache import gen_data
from toolkit.harness import binio
from toolkit.harness.binio import BadInput, load_case, read_bin, write_bin


def test_round_trip_little_endian(tmp_path):
    path = tmp_path / "sub" / "x.bin"
    data = np.array([[1, 258], [-3, 2**40]], dtype=np.int64)
    write_bin(path, data)
    assert path.read_bytes()[:16] == bytes([1, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0])
    np.testing.assert_array_equal(read_bin(path, np.int64, 4), data.ravel())
    write_bin(tmp_path / "b.bin", np.array([0x3F80], dtype=">u2"))
    assert (tmp_path / "b.bin").read_bytes() == b"\x80\x3f"


def test_missing_file(tmp_path):
    path = tmp_path / "kv.bin"
    with pytest.raises(BadInput) as exc:
        read_bin(path, np.uint16, 4)
    msg = str(exc.value)
    assert str(path) in msg and "\n" not in msg and "not found" in msg
    assert isinstance(exc.value, ValueError)


def test_wrong_size(tmp_path):
    path = tmp_path / "gamma.bin"
    path.write_bytes(b"\x00" * 6)
    with pytest.raises(BadInput) as exc:
        read_bin(path, np.uint16, 4)
    msg = str(exc.value)
    assert str(path) in msg and "\n" not in msg
    assert "6 bytes" in msg and "8 bytes" in msg


def test_load_case_reads_generated_directory(tmp_path):
    arrays = gen_data.generate(1, 4, 64, 16)
    gen_data.write(tmp_path, arrays)
    loaded = load_case(tmp_path, 1, 1, 4, 64, 16)
    assert loaded.keys() == arrays.keys()
    for key, arr in arrays.items():
        assert loaded[key].dtype == arr.dtype and loaded[key].shape == arr.shape, key
        np.testing.assert_array_equal(loaded[key], arr)


def test_load_case_wrong_shape_names_file(tmp_path):
    gen_data.write(tmp_path, gen_data.generate(1, 4, 64, 16))
    with pytest.raises(BadInput, match="kv.bin"):
        load_case(tmp_path, 1, 1, 4, 64, 32)
    (tmp_path / "output" / "v_out_golden.bin").unlink()
    with pytest.raises(BadInput, match="v_out_golden.bin"):
        load_case(tmp_path, 1, 1, 4, 64, 16)


def test_layout_sizes():
    layout = binio.case_layout(2, 1, 16, 512, 128)
    assert layout["input/index"] == (np.dtype(np.int64), (2, 16))
    assert layout["output/v_cache_golden"][1] == (2, 1, 16, 512)
    assert len(layout) == 11
