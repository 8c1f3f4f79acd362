"""Lines Linux and Windows apps print about the machine they run on: conda's torch build string, Unsloth's banner,
ComfyUI's time-stamped log, ollama's GPU discovery, ggml's Vulkan devices, llama.cpp's build target, ROCm's errors;
and what needs the lines around it: detectron2's environment table with its columns run together, `pip show`,
ollama finding no NVIDIA library, TensorFlow's device list. Read through linux_words_rules (line_facts, answers).
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Tuple

from macml.probe.paste.gpu_names import gpu_names, gpu_record
from macml.probe.paste.statement_rules import by_key

Facts = List[Tuple[str, Any]]

_CONDA_PYTORCH = re.compile(r"^\s*(?:\[conda\]\s+)?pytorch(?:\s+|=)(\d+\.\d+(?:\.\d+)?)(?:\s+|=)(\S+)")
_CONDA_PYTORCH_CUDA = re.compile(r"^\s*(?:\[conda\]\s+)?pytorch-cuda(?:\s+|=)(\d{2}\.\d)\b")


def conda_torch_build(line: str) -> Facts:
    """`conda list`'s torch build: 'pytorch 2.1.0 py3.10_cuda12.1_cudnn8.9.2_0 pytorch' (CUDA 12.1), conda-forge's
    'cuda118_py310h...' (11.8), 'py3.9_cpu_0' / 'cpu_py310h...' (no CUDA), and 'pytorch-cuda 12.1 ...' beside it."""
    meta = _CONDA_PYTORCH_CUDA.match(line)
    if meta:
        return [("torch.cuda_version", meta.group(1))]
    found = _CONDA_PYTORCH.match(line)
    build = found.group(2) if found else ""
    cuda = re.search(r"(?:^|_)cuda(\d{1,2})\.(\d)(?:\.\d+)?(?:_|$)|(?:^|_)cuda(\d{1,2}?)(\d)(?:_|py|$)", build)
    if cuda:
        return [("torch.cuda_version", f"{cuda.group(1) or cuda.group(3)}.{cuda.group(2) or cuda.group(4)}")]
    return [("torch.cuda_version", None)] if re.match(r"^(?:py[\d.]+_cpu_\d|cpu_)", build) else []


_UNSLOTH = re.compile(r"\bUnsloth\s+(\d{4}\.\d+\.\d+):\s+Fast\b|\bUnsloth: Fast \w+ patching release (\d{4}\.\d+(?:\.\d+)?)")
_UNSLOTH_GPU = re.compile(r"(?:GPU:\s+)?([^.|\\/]+?)\.\s+(?:Num GPUs = \d+\.\s+)?Max memory:\s*[\d.]+\s*GB\.\s+Platform\s*[:=]\s*"
                          r"(Linux|Windows)\b")
_UNSLOTH_TORCH = re.compile(r"\b(?:Torch|Pytorch):\s*(\d+\.\d+\.\d+[\w.+]*?)\.\s+CUDA\s*[:=]\s*(\d+\.\d+)\.\s+"
                            r"CUDA Toolkit\s*[:=]\s*(\d+\.\d+)\b")
_BANNER_PACKAGE = re.compile(r"\b(Transformers|vLLM|Triton|Xformers)\s*[:=]\s*(\d+(?:\.\d+)+(?:\.?(?:post|dev|rc)\d+)?)")


def unsloth_banner(line: str) -> Facts:
    """Unsloth's banner: '==((====))==  Unsloth 2025.3.9: Fast Qwen2 patching. Transformers: 4.49.0. vLLM: 0.7.3.',
    '   \\\\   /|    NVIDIA GeForce GTX 1070. Num GPUs = 1. Max memory: 7.909 GB. Platform: Linux.', 'O^O/ \\\\_/ \\\\
    Torch: 2.5.1+cu124. CUDA: 6.1. CUDA Toolkit: 12.4. Triton: 3.1.0' (CUDA is the GPU's capability, read through
    torch, so torch's CUDA works), 'Bfloat16 = FALSE. FA [Xformers = 0.0.28.post3. FA2 = False]'."""
    facts: Facts = []
    unsloth = _UNSLOTH.search(line)
    if unsloth:
        facts.append(("package", {"name": "unsloth", "version": unsloth.group(1) or unsloth.group(2)}))
    gpu = _UNSLOTH_GPU.search(line)
    if gpu and gpu_names(gpu.group(1)):
        facts += [gpu_record(gpu_names(gpu.group(1))[0]), ("platform", "linux" if gpu.group(2) == "Linux" else "win32")]
    torch = _UNSLOTH_TORCH.search(line)
    if torch:
        facts += [("package", {"name": "torch", "version": torch.group(1)}), ("torch.version", torch.group(1)),
                  ("torch.cuda_version", torch.group(3)), ("torch.cuda_available", True),
                  ("gpu.capability", {"name": None, "capability": torch.group(2)})]
    if unsloth or torch or re.search(r"\bBfloat16 = (?:TRUE|FALSE)\b", line):
        facts += [("package", {"name": name.lower(), "version": version}) for name, version in _BANNER_PACKAGE.findall(line)]
    return facts


_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+ -(?: |$)")
_COMFY_FIELD = re.compile(r"^\s*\*\*\s+(Platform|Python version):\s*(\S.*?)\s*$")
_OLLAMA_GFX = re.compile(r"\bamdgpu \[\d+\] (gfx[0-9a-f]{3,4}) is not supported|\bamdgpu is (?:not )?supported\b.*?\bgpu_type=(gfx[0-9a-f]{3,4})")
_OLLAMA_IGPU = re.compile(r'msg="unsupported Radeon iGPU detected skipping"')
_OLLAMA_DETECTED = re.compile(r'msg="detected GPUs" count=(\d+) library=(\S+)')
_OLLAMA_CUDART = re.compile(r'msg="Nvidia GPU detected via cudart"|msg="\[cudart\] CUDART CUDA Compute Capability detected: '
                            r'(\d{1,2}\.\d)"')
_OLLAMA_AVX = re.compile(r'source=cpu_common\.go:\d+ msg="CPU has AVX(?:2|512\w*)?"'
                         r"|\bCPU\.\d+\.(?:SSE3|SSSE3|AVX2?|AVX512\w*|F16C|BMI2)=1\b"  # ggml's 'msg=system CPU.0.AVX2=1'
                         r"|(?:system_info\W.*?|\|\s*)\bAVX2? = 1 \|")  # llama.cpp's 'system_info: ... | AVX = 1 | AVX2 = 1 |'
_VULKAN = re.compile(r"^\s*ggml_vulkan: (\d+) = (.+?) \((?:RADV|AMD|NVIDIA|Intel)[^)]*\)(.*)$")
# RPCS3's log header: 'AMD Ryzen 5 PRO 4650G with Radeon Graphics | 12 Threads | 7.63 GiB RAM | TSC: ...'
_RPCS3_SYSTEM = re.compile(r"\|\s*\d{1,3} Threads\s*\|\s*(\d{1,4}(?:\.\d{1,2})?) GiB RAM\s*\|")
_RPCS3_MACOS = re.compile(r"\bOperating system: macOS, Version: (1[0-5]|2[6-9])\.(\d{1,2})\.(\d{1,2})\s*$")
# darktable's resource report, under its time stamp: '     0.0465   total mem:       15162MB' (MiB of system memory)
_DARKTABLE_MEMORY = re.compile(r"^\s*\d+\.\d{4}\s+total mem:\s+(\d{3,7})\s?MB\s*$")
_BUILT_FOR = re.compile(r"(?:^\s*(?:\w+: )?built|\bbuild:? \d+ \([0-9a-f]+\)) with .+? for (?:(Linux|Darwin|Windows) (x86_64|aarch64|arm64|AMD64|x64)"
                        r"|(x86_64|aarch64|arm64|x64|ARM64)(?:-(?:pc-|unknown-)?(linux|apple-darwin|windows)\S*)?)\s*$")


def app_log_lines(line: str) -> Facts:
    """ComfyUI's log with its time stamps run into the text ('** Platform:2025-10-07T08:08:15.445829 -  ... - Linux'),
    ollama's 'amdgpu [0] gfx1103 is not supported' and 'detected GPUs count=1 library=.../tegra/libcuda.so' (L4T's
    driver: a Jetson), ollama 0.1's 'Nvidia GPU detected via cudart', 'CUDART CUDA Compute Capability detected: 8.6' and
    'CPU has AVX2', ggml's 'ggml_vulkan: 0 = AMD Radeon Graphics (RADV GFX1151) (radv) | uma: 1', llama.cpp's
    RPCS3's '| 12 Threads | 7.63 GiB RAM |' (the memory the OS reports), darktable's 'total mem: 15162MB', and 'Operating system: macOS, Version:
    15.2.0', llama.cpp's
    'built with GNU 11.4.0 for Linux x86_64' or 'build: 1239 (b8372ee) with clang ... for x86_64-pc-windows-msvc', and ROCm's errors (rocBLAS, hipError..., MIOpen: an AMD GPU)."""
    facts: Facts = []
    comfy = _COMFY_FIELD.match(_STAMP.sub("", line))
    if comfy:
        facts += by_key(comfy.group(1).lower(), comfy.group(2))
    gfx = _OLLAMA_GFX.search(line)
    if gfx:
        facts += [("gpu.present", "AMD"), ("gpu.gfx", gfx.group(1) or gfx.group(2))]
    if _OLLAMA_IGPU.search(line):  # the iGPU is there, only ROCm can't use it; Radeon iGPUs are in AMD's x86 APUs only
        facts.append(("cpu.hardware_arch", "x86_64"))
        facts.append(("gpu", {"name": "AMD Radeon integrated GPU (model not in the evidence)", "vendor": "AMD",
                              "memory_mib": None, "index": None}))
    detected = _OLLAMA_DETECTED.search(line)
    if detected and "/tegra/" in detected.group(2):
        facts += [("platform", "linux"), ("gpu", {"name": "NVIDIA Tegra integrated GPU", "vendor": "NVIDIA",
                                                  "memory_mib": None, "index": 0})]
    elif detected and int(detected.group(1)) and re.search(r"libcuda|libnvidia-ml", detected.group(2)):
        facts.append(("gpu.present", "NVIDIA"))
    cudart = _OLLAMA_CUDART.search(line)
    if cudart:  # ollama 0.1's discovery through cudart: an NVIDIA GPU, named by its capability only
        facts.append(("gpu.present", "NVIDIA"))
        facts += [("gpu.capability", {"name": None, "capability": cudart.group(1)})] if cudart.group(1) else []
    if _OLLAMA_AVX.search(line):  # read from Go's x/sys/cpu X86 fields, which only an x86 build fills
        facts.append(("cpu.hardware_arch", "x86_64"))
    vulkan = _VULKAN.match(line)
    named = (gpu_names(vulkan.group(2)) or re.findall(r"^(?:AMD|NVIDIA|Intel).*", vulkan.group(2))) if vulkan else []
    if named:  # 'AMD Radeon Graphics', as an APU's integrated GPU calls itself
        facts.append(("gpu", {"name": named[0], "vendor": None, "memory_mib": None, "index": int(vulkan.group(1))}))
        facts += [("gpu.gfx", g.lower()) for g in re.findall(r"\bGFX[0-9A-F]{3,4}\b", line)[:1]]
    rpcs3 = _RPCS3_SYSTEM.search(line)
    if rpcs3:
        facts.append(("cpu.memory_bytes", int(float(rpcs3.group(1)) * 1024**3)))
    darktable = _DARKTABLE_MEMORY.match(line)
    if darktable:
        facts.append(("cpu.memory_bytes", int(darktable.group(1)) * 1024**2))
    rpcs3_macos = _RPCS3_MACOS.search(line)  # its Version is major.minor.patch: '15.2.0' is 15.2
    if rpcs3_macos:
        major, minor, patch = rpcs3_macos.groups()
        facts += [("platform", "darwin"), ("os.version", f"{major}.{minor}" + (f".{patch}" if patch != "0" else ""))]
    built = _BUILT_FOR.search(line)
    system = (built.group(1) or built.group(4) or ("windows" if "MSVC" in line else "")).lower() if built else ""
    if system:  # a binary runs on its own arch, but under Rosetta or Windows' emulation
        machine = built.group(2) or built.group(3)
        facts.append(("platform", "linux" if system == "linux" else "darwin" if "darwin" in system else "win32"))
        facts += [("cpu.hardware_arch", machine)] if system == "linux" or machine == "arm64" and "darwin" in system else []
    # raised only on an AMD GPU; torch words a hipError as 'HIP error: <its message>' (but no device is no GPU)
    if re.search(r"\brocBLAS error\b|\bhipError\w+|\bMIOpen Error\b|\bHIP error: (?!no ROCm-capable device|invalid device)", line):
        facts.append(("gpu.present", "AMD"))
    # Taichi says it starts on CUDA only once a CUDA context is made on a device (otherwise it falls back to the CPU)
    if re.match(r"^\s*\[Taichi\] Starting on arch=cuda\b", line):
        facts.append(("gpu.present", "NVIDIA"))
    return facts


_DETECTRON2_ROW = re.compile(r"^\s*(sys\.platform|numpy|PyTorch|torchvision|Pillow|fvcore|iopath|CUDA available|GPU available)"
                             r"\s+(\S.*?)\s*$", re.IGNORECASE)
_TF_DEVICES = re.compile(r"^\s*\[((?:PhysicalDevice\(name='/physical_device:(?:CPU|GPU|XLA_\w+):\d+', device_type='\w+'\)"
                         r"(?:,\s*)?)+)\]\s*$")


_COMFY_DEVICE = re.compile(r"^\s*[-*]?\s*(?:\*\*)?Name:(?:\*\*)?\s*(?:cuda|xpu):(\d+)\s")
_COMFY_VRAM = re.compile(r"^\s*[-*]?\s*(?:\*\*)?VRAM Total:(?:\*\*)?\s*(\d{9,13})\s*$")


def comfyui_device_memory(lines: Sequence[str]) -> Dict[int, Facts]:
    """ComfyUI's device list: '- **Name:** cuda:0 NVIDIA GeForce RTX 4090 : cudaMallocAsync', then a few lines on
    '- **VRAM Total:** 25756696576' (bytes; not 'Torch VRAM Total', torch's own pool): device 0's memory."""
    found: Dict[int, Facts] = {}
    for index, line in enumerate(lines):
        device = _COMFY_DEVICE.match(line)
        if not device:
            continue
        for follow in range(index + 1, min(len(lines), index + 4)):
            total = _COMFY_VRAM.match(lines[follow])
            if total:
                found[follow] = [("gpu.memory_of", {"index": int(device.group(1)),
                                                    "memory_mib": round(int(total.group(1)) / 1024**2)})]
                break
    return found


def answers(lines: Sequence[str]) -> Dict[int, Facts]:
    """line index -> what the lines around it decide: detectron2's environment table with its columns run
    together ('sys.platform linux', 'CUDA available True'), `pip show`'s 'Name:' then 'Version:', ollama's
    'Discovered GPU libraries: []' after searching for NVIDIA's library (no NVIDIA driver), and TensorFlow's
    list_physical_devices() answer that lists no GPU."""
    found: Dict[int, Facts] = comfyui_device_memory(lines)
    detectron2 = any(re.match(r"^\s*(?:sys\.platform\s+(?:linux|darwin|win32)|DETECTRON2_ENV_MODULE\b|Detectron2 Compiler\b)",
                              line) for line in lines)
    asked_tf = any(re.search(r"list_physical_devices\(\s*(?:['\"]GPU['\"])?\s*\)", line) for line in lines)
    searched = ""
    for index, line in enumerate(lines):
        facts: Facts = []
        row = _DETECTRON2_ROW.match(line) if detectron2 else None
        if row:
            facts += by_key(row.group(1).lower(), row.group(2))
        name = re.match(r"^\s*Name:\s*([A-Za-z][\w.-]*)\s*$", lines[index - 1]) if index else None
        version = re.match(r"^\s*Version:\s*(\d[\w.+!-]*)\s*$", line) if name else None
        if version:
            facts += by_key(name.group(1).lower(), version.group(1))
        library = re.search(r"Searching for GPU (?:management )?library\W+(?:name=)?(\S+)", line)
        searched = library.group(1) if library else searched
        if re.search(r"[Dd]iscovered GPU libraries\"?:?\s*(?:paths=)?\[\]", line) and re.match(r"libnvidia-ml|libcuda\.so", searched):
            facts.append(("gpu.absent", "NVIDIA"))
        devices = _TF_DEVICES.match(line)
        if devices and asked_tf and "device_type='GPU'" not in line:
            facts.append(("tensorflow.no_gpu", True))
        if facts:
            found.setdefault(index, []).extend(facts)
    return found
