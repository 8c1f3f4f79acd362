"""The line readers of pasted text, in the order their facts join: the one list read_statements walks. A new
reader is a small *_rules module (pure functions of a line or of the lines) added here; where in a tuple it goes
decides which of two readers' facts about the same thing comes first.
"""
from __future__ import annotations

import copy
import functools
from typing import Any, Callable, List, Mapping, Sequence, Tuple

from macml.probe.paste import (about_this_mac_rules, amd_tool_rules, app_report_rules, apple_chip_spec_rules,
                               arch_word_rules, asahi_rules, avx_prose_rules, board_rules, build_triple_rules,
                               code_comment_answer_rules, code_span_value_rules, container_image_rules, cpufetch_rules, crash_rosetta_rules, macos_message_rules, device_list_rules, dgx_system_rules, wanted_package_rules, torch_config_rules, device_repr_rules,
                               distro_rules, distro_sentence_rules, egpu_setup_rules, env_report_rules,
                               easybuild_report_rules, faceswap_info_rules, gpu_topology_rules, fastai_info_rules, fetch_tool_rules, gfx_aside_rules, import_error_rules, form_answer_rules, framework_stem_rules, form_question_rules, general_rules, gha_runner_rules,
                               gpu_inventory_rules, gpu_list_rules, gpu_text_rules, graphics_tool_rules, lshw_rules,
                               hardware_prose_rules, host_clue_rules, host_os_words_rules, host_signs_rules, java_report_rules, json_section_rules,
                               kernel_log_rules, linux_amd_rules, linux_app_rules, linux_clues_rules,
                               linux_sentence_rules, linux_words_rules, log_prefix_rules, mac_app_rules,
                               mac_clues_rules, mac_hint_rules, mac_issue_rules, mac_memory_rules,
                               mac_model_name_rules, mac_model_year_rules, mac_prose_specs_rules,
                               mac_spec_words_rules, mac_text_rules, mac_words_rules, machine_sentence_rules,
                               metal_log_rules, metric_label_rules, mlx_device_info_rules, nvidia_cli_rules, nvidia_driver_error_rules,
                               nvidia_renderer_arch_rules, ollama_gpu_id_rules, os_answer_rules, os_build_rules, release_number_rules,
                               own_gpu_words_rules, package_list_item_rules, package_version_rules, pc_parts_rules,
                               project_version_answer_rules, python_build_rules, quadro_model_rules,
                               ram_beside_parts_rules, rocm_runtime_rules, rocm_wheel_rules, role_key_rules,
                               rosetta_env_rules, sdnext_rules, shell_output_rules, smi_fragment_rules, spec_prose_rules,
                               stack_prose_rules, tf_device_answer_rules, tool_check_json_rules, torch_info_rules,
                               typed_specs_rules,
                               ubuntu_codename_rules, uv_tag_rules, vm_guest_rules, windows_python_platform_rules,
                               windows_diag_rules, windows_shell_rules, windows_spec_rules, windows_tool_rules, wsl_rules, yolo_checks_rules,
                               statement_rules as rules, inline_rules)
from macml.probe.paste.devices import device_facts
from macml.probe.paste.log_rules import repl_facts

# The readers of whole texts (line index -> facts) in the order their facts join a line's; env_report first:
# it corrects misreadings. device_facts and repl_facts, mac_app_rules' answers and linux_app_rules' come next.
LINE_ANSWERS: Tuple[Callable[[Sequence[str]], Mapping[int, Sequence[Tuple[str, Any]]]], ...] = (
    env_report_rules.answers, device_facts, repl_facts, gpu_list_rules.crash_footer_gpus, lshw_rules.display_blocks, linux_app_rules.answers, mac_app_rules.answer_facts,
    mac_words_rules.answers, linux_words_rules.answers, linux_clues_rules.answers, mac_text_rules.answers,
    gpu_text_rules.answers, nvidia_cli_rules.answers, linux_sentence_rules.answers, mac_prose_specs_rules.answers,
    graphics_tool_rules.answers, spec_prose_rules.answers, windows_tool_rules.answers, form_answer_rules.answers,
    hardware_prose_rules.answers, shell_output_rules.answers, host_clue_rules.answers, mac_hint_rules.answers,
    board_rules.answers, gpu_inventory_rules.answers, package_version_rules.answers, app_report_rules.answers,
    egpu_setup_rules.answers, typed_specs_rules.answers, smi_fragment_rules.answers, ollama_gpu_id_rules.answers,
    nvidia_renderer_arch_rules.answers, tool_check_json_rules.answers,
    pc_parts_rules.answers, own_gpu_words_rules.answers, host_os_words_rules.answers,
    about_this_mac_rules.answers, tf_device_answer_rules.answers, ram_beside_parts_rules.answers, gpu_topology_rules.answers,
    vm_guest_rules.answers,
    device_list_rules.answers, arch_word_rules.answers, package_list_item_rules.answers, mlx_device_info_rules.answers,
    gha_runner_rules.answers, nvidia_driver_error_rules.answers, fetch_tool_rules.answers, release_number_rules.answers,
    amd_tool_rules.amd_smi_static, os_build_rules.form_version, framework_stem_rules.answers, java_report_rules.answers,
    cpufetch_rules.clusters, wsl_rules.wsl_form_distro, yolo_checks_rules.answers,
    container_image_rules.answers, json_section_rules.answers, import_error_rules.traceback_through_init,
    mac_memory_rules.size_beside_chip, import_error_rules.repl_import_died, macos_message_rules.answers, torch_config_rules.answers,
    windows_python_platform_rules.wrapped_msc_banner)
# The readers of one 'key: value' line, after rules.by_key, in the order their facts join.
KEYED: Tuple[Callable[[str, str], List[Tuple[str, Any]]], ...] = (
    mac_words_rules.keyed_facts, linux_words_rules.keyed_facts, mac_text_rules.keyed_facts,
    mac_prose_specs_rules.keyed_facts, linux_clues_rules.keyed_facts, gpu_text_rules.keyed_facts,
    graphics_tool_rules.keyed_facts, spec_prose_rules.keyed_facts, mac_issue_rules.keyed_facts,
    form_answer_rules.keyed_facts, mac_memory_rules.keyed_facts, role_key_rules.keyed_facts,
    linux_sentence_rules.keyed_facts, host_clue_rules.keyed_facts, board_rules.keyed_facts, mac_hint_rules.keyed_facts,
    host_signs_rules.keyed_facts, app_report_rules.keyed_facts, os_answer_rules.keyed_facts, mac_spec_words_rules.keyed_facts,
    distro_rules.keyed_facts, amd_tool_rules.keyed_facts, apple_chip_spec_rules.keyed_facts,
    gpu_list_rules.keyed_facts, pc_parts_rules.keyed_facts, mac_model_name_rules.keyed_facts,
    os_build_rules.keyed_facts, code_span_value_rules.keyed_facts,
    build_triple_rules.keyed_facts, ram_beside_parts_rules.keyed_facts, windows_python_platform_rules.keyed_facts,
    project_version_answer_rules.keyed_facts, faceswap_info_rules.keyed_facts, torch_info_rules.keyed_facts,
    fastai_info_rules.keyed_facts,
    windows_diag_rules.keyed_facts)
# The answers of an issue form's fields ('### OS' then 'macOS 14'), in the order their facts join.
FORM_KEYED: Tuple[Callable[[str, str], List[Tuple[str, Any]]], ...] = (
    rules.by_key, mac_words_rules.keyed_facts, linux_words_rules.keyed_facts, mac_text_rules.keyed_facts,
    gpu_text_rules.keyed_facts, mac_memory_rules.keyed_facts, mac_spec_words_rules.keyed_facts,
    form_answer_rules.keyed_facts, form_question_rules.keyed_facts, gpu_list_rules.form_keyed_facts,
    distro_rules.keyed_facts, env_report_rules.os_answer, mac_model_name_rules.keyed_facts)
# The readers of any one line. These two come before inline_rules.anywhere: the CPU they name is the more precise.
BEFORE_ANYWHERE: Tuple[Callable[[str], List[Tuple[str, Any]]], ...] = (general_rules.line_facts,
                                                                       linux_words_rules.line_facts)
# The rest, after inline_rules.anywhere, in the order their facts join.
LINE_RULES: Tuple[Callable[[str], List[Tuple[str, Any]]], ...] = (
    linux_app_rules.line_facts, mac_app_rules.mac_app_line_facts, mac_words_rules.line_facts,
    mac_clues_rules.line_facts, mac_text_rules.line_facts, linux_clues_rules.line_facts, gpu_text_rules.line_facts,
    graphics_tool_rules.line_facts, spec_prose_rules.line_facts, windows_tool_rules.line_facts,
    mac_prose_specs_rules.line_facts, mac_issue_rules.line_facts, hardware_prose_rules.line_facts,
    shell_output_rules.line_facts, mac_memory_rules.line_facts, linux_sentence_rules.line_facts,
    host_clue_rules.line_facts, stack_prose_rules.line_facts, board_rules.line_facts, gpu_inventory_rules.line_facts,
    machine_sentence_rules.line_facts, mac_model_year_rules.line_facts, rosetta_env_rules.line_facts,
    mac_hint_rules.line_facts, metal_log_rules.line_facts, app_report_rules.line_facts, typed_specs_rules.line_facts,
    wsl_rules.line_facts, linux_amd_rules.line_facts, amd_tool_rules.line_facts,
    mac_spec_words_rules.line_facts, windows_spec_rules.line_facts, distro_rules.line_facts,
    apple_chip_spec_rules.line_facts, crash_rosetta_rules.line_facts, macos_message_rules.line_facts, dgx_system_rules.line_facts, wanted_package_rules.line_facts, pc_parts_rules.line_facts,
    mac_model_name_rules.line_facts, log_prefix_rules.line_facts, kernel_log_rules.line_facts, rocm_runtime_rules.line_facts,
    gfx_aside_rules.line_facts, import_error_rules.line_facts, cpufetch_rules.build_line,
    own_gpu_words_rules.line_facts, host_os_words_rules.line_facts,
    distro_sentence_rules.line_facts, avx_prose_rules.line_facts, quadro_model_rules.line_facts,
    device_repr_rules.line_facts, rocm_wheel_rules.line_facts, ubuntu_codename_rules.line_facts,
    python_build_rules.line_facts, uv_tag_rules.line_facts, ram_beside_parts_rules.line_facts,
    windows_python_platform_rules.line_facts, fetch_tool_rules.line_facts, nvidia_driver_error_rules.line_facts,
    windows_shell_rules.line_facts, asahi_rules.line_facts, code_comment_answer_rules.line_facts, os_build_rules.line_facts,
    metric_label_rules.metric_sample, easybuild_report_rules.line_facts, vm_guest_rules.line_facts, sdnext_rules.line_facts,
    gha_runner_rules.line_facts, ollama_gpu_id_rules.line_facts, mlx_device_info_rules.line_facts)


# The rules below read one line, or one key and value, and nothing else: a line met again (the same paste
# dressed another way, a log line repeated) is read once. Values come back as copies, so no caller can change
# what the cache holds.
@functools.lru_cache(maxsize=8192)
def _pair_facts(key: str, value: str) -> Tuple[Tuple[str, Any], ...]:
    facts = list(rules.by_key(key, value))
    for keyed in KEYED:
        facts.extend(keyed(key, value))
    return tuple(facts)


@functools.lru_cache(maxsize=8192)
def _line_rule_facts(text: str) -> Tuple[Tuple[str, Any], ...]:
    facts: List[Tuple[str, Any]] = []
    for line_rule in BEFORE_ANYWHERE:
        facts.extend(line_rule(text))
    facts.extend(inline_rules.anywhere(text.replace("**", "")))
    for line_rule in LINE_RULES:
        facts.extend(line_rule(text))
    return tuple(facts)


def _fresh(facts: Sequence[Tuple[str, Any]]) -> List[Tuple[str, Any]]:
    return [(fact, value if isinstance(value, (str, int, float, type(None))) else copy.deepcopy(value))
            for fact, value in facts]


def pair_facts(key: str, value: str) -> List[Tuple[str, Any]]:
    """What rules.by_key and every KEYED reader read from one 'key: value' pair, in that order."""
    return _fresh(_pair_facts(key, value))


def line_rule_facts(text: str) -> List[Tuple[str, Any]]:
    """What BEFORE_ANYWHERE, inline_rules.anywhere and LINE_RULES read from one line, in that order."""
    return _fresh(_line_rule_facts(text))
