"""frameworks.judge: does a framework use the GPU the hardware offers, from its probe's answer."""
import pytest

from macml import frameworks


@pytest.mark.parametrize("data, kind, sees, label", [
    ({"metal_available": True}, "mps", True, "Metal"),
    ({"metal_available": False}, "mps", False, "Metal"),
    ({"cuda_built": True, "cuda_available": True, "backend_dists": ["mlx-cuda-12"]}, "cuda", True, "CUDA"),
    ({"cuda_built": True, "cuda_available": False}, "cuda", False, "CUDA"),
    ({"cuda_built": True, "cuda_available": None}, "cuda", None, "CUDA"),
    ({"cuda_built": False, "cuda_available": False, "backend_dists": ["mlx-cpu"]}, "cuda", None, ""),
    ({"metal_available": False}, "cuda", None, ""),
    ({"cuda_built": True, "cuda_available": True}, "rocm", None, ""),
], ids=["metal", "metal-missing", "mlx-cuda", "mlx-cuda-no-device", "mlx-cuda-too-old-to-say",
        "mlx-cpu-wheel", "old-probe-on-nvidia", "rocm"])
def test_mlx_judges_metal_and_cuda(data, kind, sees, label):
    use = frameworks.judge("mlx", data, kind)
    assert (use.sees, use.label) == (sees, label)


def test_mlx_probe_answer_fields_are_accepted():
    from macml.probe.frameworks import answer_problem
    answer = {"ok": True, "cuda_built": True, "cuda_available": False, "backend_dists": ["mlx-cuda-12"]}
    assert answer_problem(answer) is None
    assert "cuda_built" in answer_problem({"ok": True, "cuda_built": "yes"})
