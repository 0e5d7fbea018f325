"""Step targets of the whole-kernel report (data/hw_whole_kernel_steps.csv): a measured task-time ratio
between two variants, reported with ours as an explicit target line."""
from toolkit.calibration import whole_kernel as wk


def pred(variant: str, task: float) -> wk.KernelPrediction:
    return wk.KernelPrediction(wk.KernelRow("softmax", variant, "task_us", task, ""), task)


def test_the_membase_to_regbase_step_is_a_declared_target():
    steps = {(s.kernel, s.src, s.dst): s for s in wk.load_steps()}
    assert steps[("softmax", "0", "1")].measured == 1.24 and steps[("softmax", "0", "1")].tolerance == 5


def test_a_step_is_our_ratio_of_task_times_and_a_missing_variant_is_not_computed():
    preds = [pred("0_membase", 12.4), pred("1_regbase", 10.0), pred("3_multi_row", 9.0)]
    got = {(s["from"], s["to"]): s for s in wk.steps(preds)}
    one = got[("0_membase", "1_regbase")]
    assert abs(one["ours"] - 1.24) < 1e-9 and one["ok"]
    assert got[("3_multi_row", "7")]["ours"] is None
    text = wk.steps_report(preds)
    assert "step softmax 0_membase -> 1_regbase: measured 1.240x, ours 1.240x (+0.0%) [target: within 5%: ok]" in text
    assert "3_multi_row -> 7: measured 1.064x, ours n/a (variant not registered)" in text
