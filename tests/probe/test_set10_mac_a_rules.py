"""Set 10 (mac-a): rules fed literal lines, not capture files."""
from __future__ import annotations

from macml.knowledge.mac_families import chip_by_memory
from macml.probe.paste import inline_rules, linux_words_rules, mac_clues_rules, mac_issue_rules, mac_memory_rules, role_key_rules
from macml.probe.paste.statement_rules import by_key
from macml.probe.paste.statements import key_value, read_statements

GIB = 1024**3


def _facts(lines, fact):
    return [s.value for s in read_statements(lines) if s.fact == fact]


def test_chip_by_memory_names_the_only_tier_sold_with_that_memory():
    assert chip_by_memory(2, 24) == "M2"
    assert chip_by_memory(2, 8) == "M2"
    assert chip_by_memory(3, 18) == "M3 Pro"
    assert chip_by_memory(4, 24) is None  # the M4 and the M4 Pro both came with 24 GB
    assert chip_by_memory(2, 16) is None
    assert chip_by_memory(5, 16) is None  # not every M5 tier is in the table


def test_plain_chip_by_memory():
    assert ("cpu.brand", "Apple M2") in mac_memory_rules.plain_chip_by_memory(
        "Today I did a fresh install on a new Mac Mini with an M2 processor and 8Gb RAM.")
    assert ("cpu.brand", "Apple M2") in mac_memory_rules.plain_chip_by_memory("Mac M2 mini, 24GB")
    assert mac_memory_rules.plain_chip_by_memory("MacBook Pro M2, 16GB") == []  # the M2 or the M2 Pro
    assert mac_memory_rules.plain_chip_by_memory("Mac mini M2 Pro, 32GB") == []  # the tier is written
    assert mac_memory_rules.plain_chip_by_memory("M2 mini 8GB and M1 16GB") == []  # two chips
    assert mac_memory_rules.plain_chip_by_memory("an M2 NVMe with 8GB cache") == []  # no Mac, no chip word


def test_memory_it_should_see():
    line = "The M4 machines report correct memory and other info. The M5 shows 0/0 - it should be seeing 64GB."
    assert mac_memory_rules.memory_it_should_see(line) == [("memory.unified", 64 * GIB)]
    assert mac_memory_rules.memory_it_should_see("nvidia-smi shows nothing, it should see 24GB") == []  # no Apple chip
    assert mac_memory_rules.memory_it_should_see("The M1 should see 20GB") == []  # no Mac is sold with 20 GB


def test_vram_answer_is_unified_memory_only_on_apple_silicon():
    assert mac_memory_rules.vram_answer("gpu vram", "18Go") == [("memory.unified", 18 * GIB)]
    lines = ["### GPU vendor", "", "Apple Silicon (MPS)", "", "### GPU model", "", "M3 Pro", "", "### GPU VRAM", "", "18Go"]
    assert 18 * GIB in _facts(lines, "memory.unified")


def _machine(tmp_path, lines):
    from macml.probe.collect import facts_from_snapshot
    from macml.probe.inputs import load_inputs
    path = tmp_path / "paste.txt"
    path.write_text("\n".join(lines) + "\n")
    return facts_from_snapshot(load_inputs([path]).snapshot)


def test_vram_answer_fills_memory_on_an_apple_silicon_mac(tmp_path):
    form = ["### Operating system", "", "macOS", "", "### GPU model", "", "M3 Pro", "", "### GPU VRAM", "", "18Go"]
    assert _machine(tmp_path, form).cpu.memory_bytes == 18 * GIB
    linux = ["### Operating system", "", "Ubuntu 22.04", "", "### GPU model", "", "RTX 4090", "", "### GPU VRAM", "", "24GB"]
    assert _machine(tmp_path, linux).cpu.memory_bytes is None


def test_total_ram_key():
    assert by_key("total ram", "32.00 GB") == [("cpu.memory_bytes", 32 * GIB)]
    assert key_value("Total RAM: 32.00 GB") == ("total ram", "32.00 GB")


def test_emoji_before_key():
    assert key_value("- 🤗 Diffusers version: 0.33.0.dev0") == ("diffusers version", "0.33.0.dev0")
    assert {"name": "diffusers", "version": "0.33.0.dev0"} in _facts(["- 🤗 Diffusers version: 0.33.0.dev0"], "package")


def test_chip_memory_with_mac_word_between():
    assert ("cpu.memory_bytes", 24 * GIB) in mac_clues_rules.chip_memory("Mac M2 mini, 24GB")
    assert mac_clues_rules.chip_memory("M2 mini, 512GB SSD") == []


def test_chip_then_air():
    assert ("cpu.brand", "Apple M2") in mac_issue_rules.mac_with_chip("And I'm using macOS 26 beta 4 on M2 Air 15'.")
    assert mac_issue_rules.mac_with_chip("the M1 air bubble") == []


def test_macos_major_beta():
    assert ("os.version", "26.0") in inline_rules.mac_system("I'm using macOS 26 beta 4 on my Mac")
    assert ("os.version", "26.4") in inline_rules.mac_system("macOS 26.4 beta")
    assert not any(f == "os.version" for f, _ in inline_rules.mac_system("macOS 18 beta"))


def test_torch_in_words_two_versions_is_unclear():
    line = ("Torch version 2.4.0 has not been tested with coremltools. You may run into unexpected errors. "
            "Torch 2.2.0 is the most recent version that has been tested.")
    assert linux_words_rules.torch_in_words(line) == []
    assert ("torch.version", "2.1.0") in linux_words_rules.torch_in_words("I have torch 2.1.0 on this box")


def test_role_key_package():
    assert role_key_rules.role_package("serving", "vllm-mlx 0.2.6") == [("package", {"name": "vllm-mlx", "version": "0.2.6"})]
    assert role_key_rules.role_package("framework", "PyTorch 2.1.0") == [("package", {"name": "torch", "version": "2.1.0"})]
    assert role_key_rules.role_package("runtime", "Python 3.12.1") == []
    assert role_key_rules.role_package("server", "Ubuntu 22.04") == []
    assert role_key_rules.role_package("os", "vllm-mlx 0.2.6") == []
    assert {"name": "vllm-mlx", "version": "0.2.6"} in _facts(["- **Serving:** vllm-mlx 0.2.6"], "package")


def test_llvm_x86_cpu_beside_an_apple_chip_is_rosetta(tmp_path):
    lines = ["julia> versioninfo()", "Julia Version 1.6.7", "Platform Info:", "  OS: macOS (x86_64-apple-darwin21.4.0)",
             "  CPU: Apple M1", "  WORD_SIZE: 64", "  LLVM: libLLVM-11.0.1 (ORCJIT, westmere)"]
    assert _machine(tmp_path, lines).cpu.hardware_arch == "arm64"
    intel = lines[:4] + ["  CPU: Intel(R) Core(TM) i7-8850H CPU @ 2.60GHz", "  LLVM: libLLVM-11.0.1 (ORCJIT, skylake)"]
    assert _machine(tmp_path, intel).cpu.hardware_arch == "x86_64"
