"""The precision envelope (--precision-envelope): the perturbation of the special-function results
(toolkit.ascendc.numerics.Perturbation) and the KV figure it must reproduce."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from toolkit.ascendc import numerics as N
from toolkit.ascendc.dtypes import BF16
from toolkit.harness.envelope import reruns, worst
from toolkit.machine import load_machine

from tests.asc_support import needs_compiler, output_bytes

F32 = np.float32


def _ulps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Signed distance in ulps from a to b (float32, same sign, finite)."""
    return b.view(np.int32).astype(np.int64) - a.view(np.int32).astype(np.int64)


def test_no_perturbation_returns_the_correctly_rounded_result_itself():
    r = np.array([1.5, 2.5], F32)
    assert N.nudge("RV_VDIV", r, r, r) is r
    div = N.elementwise("div", np.dtype(F32))
    a, b = np.array([1, 2, 7], F32), np.array([3, 3, 9], F32)
    assert div(a, b).tobytes() == np.divide(a, b).tobytes()


def test_up_and_down_move_every_inexact_result_by_the_bound_toward_an_infinity():
    rng = np.random.default_rng(1)
    a = rng.uniform(-4, 4, 4096).astype(F32)
    b = rng.uniform(0.5, 3, 4096).astype(F32)
    exact = np.divide(a, b)
    for direction, sign in (("up", 1), ("down", -1)):
        with N.perturbed(N.Perturbation((("RV_VDIV", 2),), direction)):
            got = N.elementwise("div", np.dtype(F32))(a, b)
        step = np.where(exact > 0, 1, -1) * _ulps(exact, got)      # +: toward +inf
        inexact = exact.astype(np.float64) * b.astype(np.float64) != a.astype(np.float64)
        assert (step[inexact] == 2 * sign).all() and (got[~inexact] == exact[~inexact]).all()
        assert (np.sign(got) == np.sign(exact)).all()


def test_hash_draws_every_amount_in_the_bound_deterministically_by_value():
    x = np.linspace(0.1, 50, 20000).astype(F32)
    p = N.Perturbation((("RV_VSQRT", 2),), "hash", 7)
    with N.perturbed(p):
        got = N.elementwise("sqrt", np.dtype(F32))(x)
        again = N.elementwise("sqrt", np.dtype(F32))(x[::-1].copy())[::-1]   # order and position do not matter
    d = _ulps(np.sqrt(x), got)
    counts = np.bincount(d + 2, minlength=5)
    assert counts.size == 5 and (counts > 3000).all()             # -2..+2, about a fifth each
    assert got.tobytes() == again.tobytes()
    with N.perturbed(N.Perturbation((("RV_VSQRT", 2),), "hash", 8)):
        other = N.elementwise("sqrt", np.dtype(F32))(x)
    assert (other != got).mean() > 0.5                           # another seed, another machine


def test_special_values_and_exact_results_are_kept_and_other_types_are_moved_in_their_own_ulps():
    p = N.Perturbation((("RV_VDIV", 1), ("RV_VEXP", 1), ("RV_VREC", 1)), "up")
    a = np.array([0, 1, np.inf, np.nan, 6, 1], F32)
    b = np.array([3, 0, 2, 1, 3, 3], F32)
    with N.perturbed(p), np.errstate(divide="ignore", invalid="ignore"):
        q = N.elementwise("div", np.dtype(F32))(a, b)
        e = N.elementwise("exp", np.dtype(F32))(np.array([0.0, 1.0], F32))
        h = N.elementwise("div", np.dtype(np.float16))(np.array([1], np.float16), np.array([3], np.float16))
        bf = N.nudge("RV_VDIV", np.array([1 / 3], F32).astype(BF16), np.ones(1, F32))
    assert q[0] == 0 and q[1] == np.inf and q[2] == np.inf and np.isnan(q[3]) and q[4] == 2
    assert q[5] == np.nextafter(F32(1 / 3), F32(1))
    assert e[0] == 1 and e[1] == np.nextafter(np.exp(F32(1)), F32(9))
    assert h[0] == np.nextafter(np.float16(1 / 3), np.float16(1))
    assert bf.astype(F32)[0] == np.array([1 / 3], F32).astype(BF16).astype(F32)[0] + 2.0 ** -9
    assert not np.isfinite(N.nudge("RV_VDIV", np.array([np.inf], F32), a[:1])).any()


def test_reruns_are_the_extremes_and_the_seeds_of_the_machine_file():
    m = load_machine()
    runs = reruns(m)
    labels = [label for label, _ in runs]
    assert labels[:2] == ["all up", "all down"] and len(labels) == 2 + m.params["envelope"]["seeds"]
    assert all(p.bound(op) == m.params["envelope"][op] for _, p in runs for op in N.PERTURBABLE)
    w = worst([("a", {"o": {"mismatches": 3, "errors": 0, "max_diff": 0.5, "passed": True}}),
               ("b", {"o": {"mismatches": 5, "errors": 0, "max_diff": 0.25, "passed": True}}),
               ("c", {"o": {"mismatches": 1, "errors": 1, "max_diff": 0.1, "passed": False}})])["o"]
    assert (w["mismatches"], w["errors"], w["max_diff"], w["worst_rerun"], w["passed"]) == (5, 1, 0.5, "c", False)


@pytest.fixture(scope="module")
def kv_case():
    from operators.kv_rms_norm_rope_cache import host
    p = host.KvParams()
    return p, host.load_case(p, None)


def test_kv_one_ulp_of_the_rmsnorm_inverse_alone_gives_the_hardware_figure(kv_case):
    """The vendor article's hardware figure at the sample shape: 12 bf16 mismatches, max diff 0.0078125,
    from a 1-ulp change of the RegBase RmsNorm inverse (its Div 1 / rms, the only Div of the port)."""
    from operators.kv_rms_norm_rope_cache.envelope import kv_envelope
    p, data = kv_case
    env = kv_envelope(p, data, load_machine(), ["regbase"], seeds=0, only={"RV_VDIV": 1})
    out = env["groups"]["regbase"]["outputs"]
    assert (out["v_out"]["mismatches"], out["v_out"]["max_diff"]) == (12, 0.0078125)
    assert out["v_out"]["worst_rerun"] == "all down" and out["v_out"]["errors"] == 0
    assert out["v_cache"]["mismatches"] == 12                       # the same rows scattered into the cache
    assert out["k_out"]["mismatches"] == 0 and out["k_cache"]["mismatches"] == 0   # RoPE has no Div
    assert env["passed"]                                            # 2^-7 is well inside CompareBf16's 6e-2


def test_kv_a_bound_past_the_tolerance_fails_the_gate(kv_case):
    """A port that passes only while the inverse is close enough is caught: 2^19 ulps (about 6 %)."""
    from operators.kv_rms_norm_rope_cache.envelope import kv_envelope, kv_envelope_text
    p, data = kv_case
    env = kv_envelope(p, data, load_machine(), ["regbase"], seeds=1, only={"RV_VDIV": 1 << 19})
    out = env["groups"]["regbase"]["outputs"]["v_out"]
    assert not env["passed"] and not out["passed"] and out["errors"] > 0 and out["max_diff"] > 6e-2
    text = kv_envelope_text(env)
    assert "Run regbase/full_load" in text and text.endswith("envelope FAIL: the gate FAILED under some rerun")


def test_kv_command_reports_the_envelope_in_text_and_json(capsys):
    import json

    from toolkit.cli import main
    code = main(["kv_rms_norm_rope_cache", "--backend", "regbase", "--precision-envelope", "--envelope-seeds", "1",
                 "--json", "-"])
    doc = json.loads(capsys.readouterr().out)
    env = doc["precision_envelope"]
    assert code == 0 and doc["passed"] and env["passed"]
    assert env["reruns"] == ["all up", "all down", "seed 1"] and env["bounds"]["RV_VDIV"] == 1
    v_out = env["groups"]["regbase"]["outputs"]["v_out"]
    assert v_out["errors"] == 0 and v_out["max_diff"] == 0.0078125 and v_out["mismatches"] > 0
    assert set(env["groups"]["regbase"]["outputs"]) == {"k_cache", "v_cache", "k_out", "v_out"}
    code = main(["kv_rms_norm_rope_cache", "--backend", "regbase", "--precision-envelope", "--envelope-seeds", "0"])
    text = capsys.readouterr().out
    assert code == 0 and "Precision envelope (results within ulps: Div 1, Sqrt 1" in text
    assert "2 reruns: all up, all down" in text and "envelope PASS" in text


# -- the .asc route ----------------------------------------------------------------------------------------

KV_ASC = Path(__file__).resolve().parents[1] / "operators" / "kv_rms_norm_rope_cache" / "asc"


@needs_compiler
def test_asc_route_is_perturbed_as_the_python_port(kv_case):
    """The same perturbed machine on both routes: the .asc program's outputs equal the Python port's byte
    for byte, and the program's own CompareBf16 lines show the move."""
    from operators.kv_rms_norm_rope_cache import host
    from toolkit.asc.build import build
    from toolkit.asc.envelope import printed_checks
    from toolkit.asc.runner import run_program
    p, data = kv_case
    pert = N.Perturbation((("RV_VDIV", 1), ("RV_VSQRT", 1)), "hash", 3)
    run = run_program(build(KV_ASC / "regbase" / "full_load.asc"), [], timeout=120, perturbation=pert)
    with N.perturbed(pert):
        port = host.run_backend("regbase", p, data)
    assert run.failure is None and run.exit_status == 0
    got = output_bytes(run)
    for name in host.OUTPUTS:
        assert got[name] == port.outputs[name].tobytes(), name
    printed = printed_checks(run.stdout)
    assert printed["v_out"]["errors"] == 0 == port.checks["v_out"].errors
    assert printed["v_out"]["max_diff"] == round(port.checks["v_out"].max_diff, 6)


@needs_compiler
def test_run_and_compare_commands_report_the_envelope(capsys):
    import json

    from toolkit.cli import main
    reg, mem = str(KV_ASC / "regbase" / "full_load.asc"), str(KV_ASC / "membase" / "full_load.asc")
    code = main(["run", reg, "--precision-envelope", "--envelope-seeds", "0", "--json", "-"])
    doc = json.loads(capsys.readouterr().out)
    env = doc["precision_envelope"]
    assert code == 0 and doc["passed"] and env["passed"] and env["reruns"] == ["all up", "all down"]
    prog = env["groups"]["program"]
    assert prog["verdicts"] == {"all up": "PASS", "all down": "PASS"}
    assert prog["outputs"]["v_out"]["errors"] == 0 and prog["outputs"]["v_out"]["max_diff"] == 0.007812
    moved = env["groups"]["launch 0: kv_rms_norm_rope_cache"]["outputs"]
    assert moved["v_out (bfloat16)"]["mismatches"] > 0 and moved["v_out (bfloat16)"]["max_diff"] == 0.0078125
    assert moved["k_out (bfloat16)"]["mismatches"] == 0
    code = main(["compare", mem, reg, "--precision-envelope", "--envelope-seeds", "0"])
    text = capsys.readouterr().out
    assert code == 0 and "the comparison's verdict: PASS under 2 of 2 reruns" in text
    assert "v_out (bfloat16): worst" in text and "differ from the other program, 0 beyond 0.06" in text
    assert text.rstrip().endswith("envelope PASS: the gate held under every rerun")


# -- every API built on the perturbed instructions, both forms ---------------------------------------------
def _reg_apis():
    from toolkit.ascendc import regbase as Reg

    def full():
        return Reg.CreateMask[float]()
    return {
        "Div": lambda r, o: Reg.Div(o[0], r[0], r[1], full()), "Sqrt": lambda r, o: Reg.Sqrt(o[0], r[1], full()),
        "Exp": lambda r, o: Reg.Exp(o[0], r[0], full()), "Ln": lambda r, o: Reg.Ln(o[0], r[1], full()),
        "Log": lambda r, o: Reg.Log(o[0], r[1], full()), "Log2": lambda r, o: Reg.Log2(o[0], r[1], full()),
        "Log10": lambda r, o: Reg.Log10(o[0], r[1], full()),
        "ExpSub": lambda r, o: Reg.ExpSub(o[0], r[0], r[1], full()),
        "Mul": lambda r, o: Reg.Mul(o[0], r[0], r[1], full()),            # not a special function: kept
    }


def _mem_apis():
    from tests.api_support import T
    from toolkit.ascendc import membase as M
    n = 64
    return {
        "Div": lambda d, a, b: M.Div(T(d, F32), T(a, F32), T(b, F32), n),
        "Divs": lambda d, a, b: M.Divs(T(d, F32), T(a, F32), F32(3.7), n),
        "Sqrt": lambda d, a, b: M.Sqrt(T(d, F32), T(b, F32), n), "Exp": lambda d, a, b: M.Exp(T(d, F32), T(a, F32), n),
        "Ln": lambda d, a, b: M.Ln(T(d, F32), T(b, F32), n), "Rsqrt": lambda d, a, b: M.Rsqrt(T(d, F32), T(b, F32), n),
        "Reciprocal": lambda d, a, b: M.Reciprocal(T(d, F32), T(b, F32), n),
        "ExpSub": lambda d, a, b: M.ExpSub(T(d, F32), T(a, F32), T(b, F32), n),
        "Mul": lambda d, a, b: M.Mul(T(d, F32), T(a, F32), T(b, F32), n),
    }


_A = np.linspace(-3.1, 2.9, 64).astype(F32)
_B = np.linspace(0.37, 7.3, 64).astype(F32)
_UP = N.Perturbation(tuple((op, 1) for op in N.PERTURBABLE), "up")


def _moved_up(base: np.ndarray, got: np.ndarray) -> np.ndarray:
    """Per element: +1 where got is base's next float toward +inf, 0 where equal, else -99."""
    up = np.nextafter(base, F32(np.inf))
    return np.where(got == base, 0, np.where(got == up, 1, -99))


@pytest.mark.parametrize("api", list(_reg_apis()))
def test_every_reg_special_function_is_moved_and_nothing_else(ctx, api):
    from tests.reg_support import run
    body = _reg_apis()[api]
    base, = run(ctx, body, [_A, _B], [F32, F32], [F32])
    with N.perturbed(_UP):
        got, = run(ctx, body, [_A, _B], [F32, F32], [F32])
    moved = _moved_up(base, got)
    assert (moved >= 0).all()
    assert (moved == 1).mean() > 0.9 if api != "Mul" else (moved == 0).all()


@pytest.mark.parametrize("api", list(_mem_apis()))
def test_every_membase_special_function_is_moved_and_nothing_else(ctx, api):
    from tests.api_support import get, put
    put(ctx, 0, _A)
    put(ctx, 8192, _B)
    _mem_apis()[api](16384, 0, 8192)
    base = get(ctx, 16384, F32, 64)
    with N.perturbed(_UP):
        _mem_apis()[api](16384, 0, 8192)
    moved = _moved_up(base, get(ctx, 16384, F32, 64))
    assert (moved >= 0).all()
    assert (moved == 1).mean() > 0.9 if api != "Mul" else (moved == 0).all()
