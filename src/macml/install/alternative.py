"""What to offer where a recipe row's own index cannot be reached: the same requirements from PyPI
(or the user's own pip index), with what that costs, as an explicit choice (--from-pypi), never
taken silently: on Linux x86_64, PyPI's torch is the CUDA build and pulls gigabytes of libraries."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Optional

from macml.install.downloads import format_size, summary, total
from macml.install.pip import Plan

OPTION = "--from-pypi"


@dataclass(frozen=True)
class Alternative:
    requirements: str  # "torch==2.15.0"
    index_url: Optional[str]  # the user's pip index; None: PyPI
    plan: Optional[Plan] = None  # None: not planned (--offline asks for no network use by macml)

    @property
    def where(self) -> str:
        return f"your pip index {self.index_url}" if self.index_url else "PyPI"

    @property
    def cost(self) -> str:
        """'2.9 GB to download (31 files), with CUDA libraries (18 files, 2.6 GB of it)'."""
        if self.plan is None or not self.plan.ok:
            return ""
        cuda = [d for d in self.plan.downloads if d.cuda]
        text = summary(self.plan.downloads) or "nothing to download"
        if cuda:
            text += f", with CUDA libraries ({len(cuda)} files, {format_size(total(cuda)[0])} of it)"
        return text

    @property
    def sentence(self) -> str:
        if self.plan is not None and not self.plan.ok:
            return f"{self.requirements} from {self.where} cannot be planned either: {self.plan.error}"
        cost = f": {self.cost}" if self.cost else " (not measured offline; it may be another build, gigabytes big)"
        return f"Instead, {self.requirements} from {self.where}{cost}. To install that, run the same command with {OPTION}."

    def to_json(self) -> Dict[str, Any]:
        plan = self.plan
        return {"requirements": self.requirements, "index_url": self.index_url, "option": OPTION,
                "download_bytes": total(plan.downloads)[0] if plan and plan.ok else None,
                "cuda_libraries": [d.name for d in plan.downloads if d.cuda] if plan and plan.ok else None,
                "error": plan.error if plan else None, "cost": self.cost}
