"""The naive floor of `macml verify --framework torch`: what any script proving a CUDA GPU trains
must pay at least. Import torch, initialise CUDA, one first training step of the same convnet
(cuDNN's first convolution included), then 300 steps, synchronised. No checks, no data files, no
CPU run. Prints one JSON line: seconds per phase since the interpreter started (`phases`), and `total`.

    python benchmarks/naive_floor.py            # on the machine with the GPU
    python benchmarks/naive_floor.py --steps 5  # a quick check on a CPU
"""
import argparse
import json
import time

START = time.perf_counter()
parser = argparse.ArgumentParser(description="the naive floor of macml verify --framework torch")
parser.add_argument("--steps", type=int, default=300)
steps = parser.parse_args().steps
marks = {}


def mark(name):
    marks[name] = round(time.perf_counter() - START, 3)


import torch  # noqa: E402
import torch.nn as nn  # noqa: E402

mark("import torch")
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
torch.zeros(1, device=device)
if device.type == "cuda":
    torch.cuda.synchronize()
mark("CUDA init" if device.type == "cuda" else "no CUDA: the CPU")
model = nn.Sequential(nn.Conv2d(1, 32, 3), nn.ReLU(), nn.Conv2d(32, 64, 3), nn.ReLU(), nn.MaxPool2d(2),
                      nn.Dropout(0.25), nn.Flatten(), nn.Linear(9216, 128), nn.ReLU(), nn.Dropout(0.5),
                      nn.Linear(128, 10)).to(device)
opt = torch.optim.Adadelta(model.parameters(), lr=1.0)
x = torch.rand(128, 1, 28, 28, device=device)
y = torch.randint(0, 10, (128,), device=device)


def step():
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    return loss


step()
float(step().detach())
mark("first conv steps")
for _ in range(steps):
    loss = step()
float(loss.detach())
mark(f"{steps} steps")
print(json.dumps({"device": device.type, "torch": torch.__version__, "phases": marks,
                  "total": round(time.perf_counter() - START, 3)}))
