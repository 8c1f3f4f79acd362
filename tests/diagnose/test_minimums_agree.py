"""The doctor and the recipes agree on every macOS minimum: on each macOS from 10.15 to 26, a Metal
recipe is named as needing a newer macOS by `macml doctor` exactly when `macml recipes` refuses it for
its macOS (the doctor once said MLX was too old on macOS 13.6 while the mlx recipe offered 13.5+)."""
import pytest

from macml.diagnose import run_checks
from macml.facts import GPU, CPUFacts, MachineFacts, OSFacts
from macml.recipes.catalog import load_all, match

RECIPES = load_all()
METAL = [r for r in RECIPES if r.accelerator in ("mps", "metal")]
VERSIONS = ("10.15", "11.7", "12.1", "12.3", "12.7", "13.0", "13.4", "13.5", "13.6", "14.0", "14.3", "14.4", "15.1",
            "26.0")
MACS = {
    "apple-silicon": (CPUFacts(brand="Apple M2 Pro", hardware_arch="arm64", apple_silicon=True),
                      GPU(vendor="Apple", model="Apple M2 Pro", unified_memory=True)),
    "intel-amd": (CPUFacts(brand="Intel(R) Core(TM) i9-9880H", hardware_arch="x86_64", apple_silicon=False),
                  GPU(vendor="AMD", model="AMD Radeon Pro 5500M")),
}


def mac(kind, version):
    cpu, gpu = MACS[kind]
    return MachineFacts(platform="darwin", os=OSFacts(system="Darwin", name="macOS", version=version), cpu=cpu,
                        gpus=(gpu,), vm=False)


@pytest.mark.parametrize("kind", sorted(MACS))
@pytest.mark.parametrize("version", VERSIONS)
def test_doctor_names_exactly_the_recipes_its_macos_is_too_old_for(kind, version):
    facts = mac(kind, version)
    refused = {r.name for r in METAL if not match(r, facts).ok and match(r, facts).shortfalls_about("min_os")}
    finding = next((f for f in run_checks(facts, RECIPES, only=["macos_version"]) if f), None)
    text = " ".join((finding.message, *finding.details)) if finding else ""
    named = {r.name for r in METAL if f"{r.name} needs macOS" in text or f"too old for {r.name}" in text}
    assert named == refused, text


def test_mlx_on_macos_13_6_is_not_called_too_old():
    finding = run_checks(mac("apple-silicon", "13.6"), RECIPES, only=["macos_version"])[0]
    text = " ".join((finding.message, *finding.details))
    assert "mlx needs macOS" not in text and "too old for mlx" not in text
    assert finding.level == "warn" and "current pytorch-mps release" in finding.message  # below 14: held back, not refused
