"""Readers and knowledge of the set-24 fix round, on literal texts: what they read, and near misses that must not
fire."""
from macml.knowledge.macos import macos_for_darwin, sole_release
from macml.probe.paste.gpu_names import gpu_names
from paste_said import check_levels, facts_of, recommended_for, said_by


def test_a_line_about_two_macs_names_neither_chip():
    said = said_by("I purchased a license and have been using it on both my macbooks (M2 work and Intel personal).")
    assert not any(fact in ("cpu.hardware_arch", "cpu.brand", "cpu.apple_generation") for fact, _ in said)
    assert ("cpu.hardware_arch", "arm64") in said_by("can't install on my MBP M2")


def test_about_this_macs_graphics_line_lists_both_gpus_and_its_processor():
    facts = facts_of("Processor: 2,6 GHz 6-Core Intel Core\nGraphics: Radeon Pro 555X 4 GB Intel UHD Graphics 630 1536 MB\n"
                     "OS: macOS Sonoma 14.5\n")
    assert {(g.model, g.memory_bytes // 2**20) for g in facts.gpus} == {("Radeon Pro 555X", 4096),
                                                                          ("Intel UHD Graphics 630", 1536)}
    assert facts.cpu.hardware_arch == "x86_64"


def test_a_machine_field_of_an_issue_form_lists_its_gpus():
    facts = facts_of("### System information\n\n14.4.1  2.9 GHz Quad-Core Intel Core i7 Radeon Pro 460 4 GB "
                     "Intel HD Graphics 530 1536 MB\n")
    assert {g.model for g in facts.gpus} == {"Radeon Pro 460", "Intel HD Graphics 530"}
    gpu_answer = facts_of("### GPU\n\nproduct: Strix Halo [Radeon Graphics / Radeon 8050S Graphics / Radeon 8060S Graphics]\n")
    assert len(gpu_answer.gpus) <= 1  # a '### GPU' answer naming a family is not a list of cards


def test_old_darwin_majors_give_their_release_only():
    assert macos_for_darwin("13.4.0")[0] == "10.9" and macos_for_darwin("16.7.0")[0] == "10.12"
    assert macos_for_darwin("9.8.0")[0] is None


def test_unknown_hardware_is_not_told_it_is_held_back():
    text = "### Operating System\n\nMacOS\n\n### OS Version\n\nVentura 13.0\n"
    assert check_levels(text).get("macos_version") != "warn"


def test_a_bare_radeon_number_but_not_a_year():
    assert gpu_names("- GPU: radeon 560 4gb") == ["radeon 560"] and gpu_names("Radeon 7950") == ["Radeon 7950"]
    assert gpu_names("the Radeon 2023 driver") == []


def test_a_report_that_opens_with_windows():
    assert ("platform", "win32") in said_by("Windows 10, Julia v1.5.0, CUDA v1.3.0")
    assert ("platform", "win32") not in said_by("Windows 10 users, see the FAQ")


def test_big_sur_typed_as_one_word():
    assert sole_release("macOS BigSur") == "11" and ("os.release", "11") in said_by("macOS BigSur")
    assert recommended_for("# Not support for Apple M1\nmacOS BigSur\n") == "pytorch-cpu"


def test_rosetta_beside_a_denial_elsewhere_in_the_line():
    line = ("When using the Rosetta 2 emulator to work in a `x86_64` environment on an Apple M1 system, `spack` "
            "complains about not being able to detect the CPU:")
    assert ("process.translated", True) in said_by(line)
    assert ("process.translated", True) not in said_by("I am not using Rosetta, my shell is x86_64 on purpose")


def test_spacks_platform_triple():
    said = said_by("* **Platform:** darwin-monterey-x86_64")
    assert ("os.release", "12") in said and ("python.machine", "x86_64") in said
    assert ("python.machine", "arm64") in said_by("* **Platform:** darwin-sonoma-m2")
    assert not any(f == "python.machine" for f, _ in said_by("* **Platform:** linux-ubuntu22.04-zen2"))


def test_cuda_jl_driver_cuda_version_is_major_minor():
    assert ("gpu.cuda_driver", "11.0") in said_by("CUDA driver 11.0.0")
    assert ("gpu.cuda_driver", "12.4") not in said_by("CUDA driver 12.4.1")  # a patch that is not .0 stays


def test_neofetchs_gpu_line_from_a_bash_trace():
    facts = facts_of("+ string='GPU: NVIDIA NVIDIA Corporation Device 1ba1'\n+ [[ -z 33 ]]\n")
    assert facts.platform == "linux" and [(g.model, g.compute_capability) for g in facts.gpus] == [
        ("NVIDIA GeForce GTX 1070 Mobile", "6.1")]  # pci.ids: 10de:1ba1 is the GP104M GTX 1070 Mobile, named so
    assert facts_of("+ string='Memory: 12 / 32 GiB'\n").gpus == ()
