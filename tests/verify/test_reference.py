"""The float64 reference step, written once against ArrayOps, computed in NumPy and in torch's own
float64: both must match the NumPy reference it replaced (tests/verify/reference_oracle.py) to
rounding, for both ways of routing a tied max-pool window's gradient."""
from __future__ import annotations

import pytest

from conftest import SHARED_MNIST, load_check_script
import reference_oracle

np = pytest.importorskip("numpy")
torch = pytest.importorskip("torch")

TOLERANCE = 1e-12  # float64 summation order only; measured 7e-15 (torch) and 0 (NumPy)


@pytest.fixture(scope="module")
def modules():
    return (load_check_script("workloads/_reference.py"), load_check_script("workloads/_model_spec.py"),
            load_check_script("workloads/_workload_common.py"))


@pytest.fixture(scope="module")
def case(modules):
    """The parity weights and batch: MNIST's first (blank borders: tied pool windows) where the
    shared split is present, else --synthetic's generated one; the oracle's answer per routing."""
    _, spec, common = modules
    images = SHARED_MNIST / "t10k-images-idx3-ubyte.gz"
    data = (common.read_split(str(images), str(SHARED_MNIST / "t10k-labels-idx1-ubyte.gz"), ":") if images.exists()
            else common.synthetic_split(256))
    weights, batch = spec.initial_weights(), common.first_batch(data)
    x32, y = common.numpy_batch(np, batch)
    arrays = common.numpy_weights(np, weights)
    return weights, batch, {ties: reference_oracle.reference_step(np, x32, y, arrays, ties) for ties in ("first", "every")}


@pytest.mark.parametrize("ties", ["first", "every"])
@pytest.mark.parametrize("library", ["numpy", "torch"])
def test_generic_reference_matches_the_numpy_one(modules, case, library, ties):
    reference = modules[0]
    weights, batch, oracle = case
    ops = reference.numpy_ops() if library == "numpy" else reference.TorchOps(torch)
    with ops.context():
        x, labels = ops.batch(*batch)
        logits, loss, grads = reference.reference_step(ops, x, labels, [ops.floats(v, s) for _, s, v in weights], ties)
    want = oracle[ties]
    assert ops.name == f"{library}-float64"
    assert abs(loss - want[1]) <= TOLERANCE * abs(want[1])
    for got, expected in zip([logits] + grads, [want[0]] + want[2]):
        got = got.numpy() if library == "torch" else got
        assert got.dtype == np.float64 and got.shape == expected.shape
        assert np.linalg.norm(got - expected) <= TOLERANCE * np.linalg.norm(expected)


def test_tied_windows_route_to_the_first_or_every_maximum(modules):
    reference = modules[0]
    ops = reference.TorchOps(torch)
    blocks = torch.zeros(1, 12, 2, 12, 2, 1, dtype=torch.float64)  # every window a four-way tie
    blocks[0, 0, 1, 0, 0, 0] = 1.0  # the first window's maximum is its third element
    first, every = reference.first_max(ops, blocks), reference.every_max(ops, blocks)
    assert first[0, 0, :, 0, :, 0].tolist() == [[0.0, 0.0], [1.0, 0.0]]
    assert first[0, 1, :, 1, :, 0].tolist() == [[1.0, 0.0], [0.0, 0.0]]  # a tie: the first one only
    assert every[0, 1, :, 1, :, 0].tolist() == [[1.0, 1.0], [1.0, 1.0]]
    assert float(first.sum()) == 144.0
