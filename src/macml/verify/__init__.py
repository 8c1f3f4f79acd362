"""Verify: prove that training runs on the accelerator, correctly and fast.

Takes: the target interpreter, a framework and MNIST (`mnist`). Gives: a `VerifyReport`. The
workload (checks/workloads/) runs in the target and streams JSON events (`stream`); `result`
turns them into frozen measurements and judges them; `report` renders. `command` drives it.
"""
