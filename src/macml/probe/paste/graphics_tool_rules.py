"""Graphics tools' outputs (Linux's mostly), each read by a pure function returning stated facts:

- Mesa's drivers name Linux: a Vulkan device '(RADV POLARIS10) (radv)' (RADV is Mesa's Vulkan driver for AMD, as
  llama.cpp's 'ggml_vulkan' and vulkaninfo print it), glxinfo's renderer '(navi10, LLVM 13.0.1, DRM 3.42,
  5.15.0-56-generic)' (DRM is the Linux kernel's Direct Rendering Manager).
- glxinfo -B's 'Video memory: 6144MB' (GLX_MESA_query_renderer) and 'Dedicated video memory: 8192 MB' (GL_NVX):
  the one GPU's memory.
- fastfetch --format json: a GPU's '"driver": "amdgpu"' (a Linux kernel driver's name) and the Memory module's
  '"total": 33247907840' bytes.
- Godot's start line 'OpenGL API 3.3.0 NVIDIA 390.157 - Compatibility - Using Device: NVIDIA - GeForce GT 650M': the
  NVIDIA driver's version, as the GL version string carries it (glxinfo's key form is gpu_text_rules').
- OpenCL users' device lines: GDAL's "OpenCL: Connected to vendor='Intel Inc.' / device='Intel(R) UHD Graphics 630'
  (GPU implementation)": the GPU the program opened; RPCS3's "RSX: Found Vulkan-compatible GPU: 'AMD Radeon PRO
  W7900' running on driver 2.0.302", one line per GPU.
- Apple's OpenGL strings (macOS's OpenGL.framework): a renderer named '<GPU> OpenGL Engine' ('Intel HD Graphics OpenGL
  Engine', 'AMD Radeon Pro 560 OpenGL Engine') and a version carrying Apple's driver bundle ('2.1 INTEL-10.4.14',
  '4.1 ATI-3.10.19', '4.1 NVIDIA-10.33.0'): macOS, and the GPU the renderer names (Mesa and the Windows drivers write
  neither form).
- OpenCL platform versions: NVIDIA's 'OpenCL 3.0 CUDA 12.6.65' carries the CUDA version its driver supports; PoCL's
  'OpenCL 3.0 PoCL 6.0  Linux, Release, ...' names the OS it was built for.
- rocm-smi --showhw's table ('GPU NODE DID GUID GFX VER ...'): one AMD GPU per row, on Linux (rocm-smi is a Linux
  tool: https://rocm.docs.amd.com/projects/rocm_smi_lib/en/latest/).
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.knowledge.amd_gfx import codename_target
from macml.probe.paste.base import rows_under
from macml.probe.paste.gpu_names import gpu_names, gpu_record

Facts = List[Tuple[str, Any]]

_MESA_LINUX = re.compile(r"\(RADV\s+[A-Z0-9_ ]+\)|\(radv\)|\bLLVM \d+(?:\.\d+)*, DRM \d+\.\d+\b")


_GODOT_GL = re.compile(r"\bOpenGL API \d\.\d(?:\.\d+)? NVIDIA (\d{3}\.\d{2,3}(?:\.\d{1,2})?) - ")


def godot_gl_driver(line: str) -> Facts:
    found = _GODOT_GL.search(line)
    return [("gpu.driver", found.group(1)), ("gpu.present", "NVIDIA")] if found else []


def mesa_linux(line: str) -> Facts:
    """'Vulkan0: AMD Radeon RX 580 Series (RADV POLARIS10) (radv)', 'Device: AMD Radeon RX 5600 XT (navi10, LLVM
    13.0.1, DRM 3.42, 5.15.0-56-generic)': Mesa's Linux drivers, so the machine runs Linux."""
    return [("platform", "linux")] if _MESA_LINUX.search(line) else []


_LINUX_KERNEL_DRIVERS = ("amdgpu", "radeon", "i915", "xe", "nouveau")


def kernel_driver(key: str, value: str) -> Facts:
    """fastfetch's '"driver": "amdgpu"': a GPU bound to a Linux kernel driver ('nvidia' is left out: Windows and
    Linux tools both print it)."""
    return [("platform", "linux")] if key == "driver" and value.strip().lower() in _LINUX_KERNEL_DRIVERS else []


_VIDEO_MEMORY = re.compile(r"^(\d{2,6})\s?(MB|MiB)$", re.IGNORECASE)


def glx_video_memory(key: str, value: str) -> Facts:
    """glxinfo's 'Video memory: 6144MB' / 'Dedicated video memory: 8192 MB' -> 6144 MiB of GPU memory."""
    size = _VIDEO_MEMORY.match(value.strip()) if key in ("video memory", "dedicated video memory") else None
    return [("gpu.memory_of", {"index": None, "memory_mib": int(size.group(1))})] if size and int(size.group(1)) >= 256 else []


def fastfetch_memory(lines: Sequence[str]) -> Dict[int, Facts]:
    """fastfetch --format json's '"type": "Memory"' module and its '"total": 33247907840' (bytes) a few lines on."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        if not re.match(r'^\s*"type"\s*:\s*"Memory"\s*,?\s*$', line):
            continue
        for follow in range(index + 1, min(len(lines), index + 6)):
            total = re.match(r'^\s*"total"\s*:\s*(\d{9,14})\s*,?\s*$', lines[follow])
            if total:
                found[follow] = [("cpu.memory_bytes", int(total.group(1)))]
                break
            if re.match(r'^\s*"type"\s*:', lines[follow]):
                break
    return found


_SHOWHW_HEADER = re.compile(r"^\s*GPU\s+NODE\s+DID\s+GUID\s+GFX VER\b")
_SHOWHW_ROW = re.compile(r"^\s*(\d{1,2})\s+\d+\s+(0x[0-9a-f]{4})\s+\d+\s+(gfx[0-9a-f]{3,5})\s", re.IGNORECASE)


def _showhw_row(line: str) -> Facts:
    row = _SHOWHW_ROW.match(line)
    return [("gpu", {"name": f"AMD GPU (device {row.group(2).lower()})", "vendor": "AMD", "memory_mib": None,
                     "index": int(row.group(1))})] if row else []


def rocm_smi_showhw(lines: Sequence[str]) -> Dict[int, Facts]:
    """rocm-smi --showhw: '0    1     0x7480  3799   gfx11002  N/A ...' -> AMD GPU 0 (device 0x7480), on Linux."""
    return rows_under(lines, _SHOWHW_HEADER, "linux", _showhw_row)


_OPENCL_CONNECTED = re.compile(r"\bOpenCL: Connected to vendor='[^']*' / device='([^']+)' \(GPU implementation\)")


_VULKAN_FOUND = re.compile(r"\bFound Vulkan-compatible GPU: '([^']+)'")  # RPCS3's log, one line per GPU


def device_opened(line: str) -> Facts:
    """The GPU a program says it opened: GDAL's OpenCL device, RPCS3's Vulkan one."""
    found = _OPENCL_CONNECTED.search(line) or _VULKAN_FOUND.search(line)
    names = gpu_names(found.group(1)) if found else []
    return [gpu_record(names[0])] if names else []


_APPLE_GL_RENDERER = re.compile(r"\b((?:Intel|AMD|ATI|NVIDIA)\b[^=:|'\"]{2,60}?) OpenGL Engine\b")
_APPLE_GL_VERSION = re.compile(r"\b\d\.\d (?:INTEL|ATI|NVIDIA)-\d{1,2}\.\d{1,2}\.\d{1,3}\b")


def apple_opengl(line: str) -> Facts:
    """'GL_RENDERER = Intel HD Graphics OpenGL Engine' -> macOS, that GPU; 'GL_VERSION = 2.1 INTEL-10.4.14' -> macOS."""
    renderer = _APPLE_GL_RENDERER.search(line)
    if renderer:
        names = gpu_names(renderer.group(1))
        return [("platform", "darwin")] + ([gpu_record(names[0])] if names else [])
    return [("platform", "darwin")] if _APPLE_GL_VERSION.search(line) else []


_OPENCL_CUDA = re.compile(r"\bOpenCL \d\.\d CUDA (\d{1,2}\.\d)\.\d+\b")
_POCL_OS = re.compile(r"\bOpenCL \d\.\d PoCL \d+\.\d+\S*\s+(Linux|Darwin|Windows)\s*,")


def opencl_platform(line: str) -> Facts:
    """'version: OpenCL 3.0 CUDA 12.6.65' -> CUDA 12.6 driver; 'OpenCL 3.0 PoCL 6.0  Linux, Release' -> Linux."""
    cuda, pocl = _OPENCL_CUDA.search(line), _POCL_OS.search(line)
    facts: Facts = [("gpu.cuda_driver", cuda.group(1)), ("gpu.present", "NVIDIA")] if cuda else []
    platform = {"Linux": "linux", "Darwin": "darwin", "Windows": "win32"}.get(pocl.group(1)) if pocl else None
    return facts + ([("platform", platform)] if platform else [])


# Mesa's older Gallium renderer string: 'Gallium 0.4 on AMD POLARIS10 (DRM 3.9.0 / 4.10.0-35-generic, LLVM 4.0.0)'
# (radeonsi names the chip; DRM is Linux's)
_GALLIUM_AMD = re.compile(r"\bGallium \d+\.\d+ on AMD ([A-Z]+ ?\d*)\b(?= \(DRM)")


def gallium_amd(line: str) -> Facts:
    found = _GALLIUM_AMD.search(line)
    target = codename_target(found.group(1)) if found else None
    return [("platform", "linux"), ("gpu.present", "AMD")] + ([("gpu.gfx", target)] if target else []) if found else []


def line_facts(line: str) -> Facts:
    return (mesa_linux(line) + godot_gl_driver(line) + device_opened(line) + apple_opengl(line) + opencl_platform(line)
            + gallium_amd(line))


def keyed_facts(key: str, value: str) -> Facts:
    return kernel_driver(key, value) + glx_video_memory(key, value)


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> facts read from the lines around it."""
    found: Dict[int, Facts] = {}
    for reader in (fastfetch_memory, rocm_smi_showhw):
        for index, facts in reader(lines).items():
            found.setdefault(index, []).extend(facts)
    return found
