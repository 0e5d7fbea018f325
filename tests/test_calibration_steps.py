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


def test_each_variant_is_judged_by_settings_fitted_without_it():
    from toolkit.calibration import whole_kernel_fit as wf
    from toolkit.machine import load_machine

    launches, machine = wk.collect(), load_machine()
    folds = wf.leave_one_variant_out(launches, machine, rounds=1)
    assert set(folds) == set(launches)                 # every variant held out once
    for key, held in folds.items():
        assert held and {(p.row.kernel, p.row.variant) for p in held} == {key}
        rest = {k: v for k, v in launches.items() if k != key}
        fitted, score = wf.fit(rest, machine, rounds=1)
        # the held-out rows are predicted under the fit of the others, not under the machine file
        assert [p.ours for p in held] == [p.ours for p in wk.predict_rows({key: launches[key]}, fitted)
                                          if p.ours is not None]
        assert score <= wk.objective(wk.predict_rows(rest, machine)) + 1e-9
    s = wf.loo_summary(folds)
    errs = [abs(e) for e in s["task_error_pct"].values()]
    assert abs(s["task_mape"] - sum(errs) / len(errs)) < 0.01
    assert wf.loo_text(s).startswith("whole-kernel leave-one-variant-out")
