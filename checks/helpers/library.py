"""The installed transformers library as evidence: tiny models built from its configurations, and its modeling code.

Models are built with the library's defaults for what a claim is about (position limits, position scheme) and
tiny widths (one layer, hidden size 16) so they run in milliseconds on a CPU; no weights are downloaded. The
architecture survey reads the source files of the library's causal-LM modules with ``ast`` (nothing executed).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TINY = {"vocab_size": 32, "num_hidden_layers": 1, "num_attention_heads": 2}
"""The sizes every tiny model shares (the position settings keep the library's defaults)."""


def library_version() -> str:
    """The installed transformers version (imported on the call: transformers loads only when a claim asks)."""
    import transformers

    return str(transformers.__version__)


def bert() -> Any:
    """transformers' BertModel with BertConfig's defaults for positions (bert-base's 512), tiny widths."""
    from transformers import BertConfig, BertModel

    return BertModel(BertConfig(**TINY, hidden_size=16, intermediate_size=32)).eval()


def gpt2() -> Any:
    """transformers' GPT2Model with GPT2Config's defaults for positions (gpt2's 1024), tiny widths."""
    from transformers import GPT2Config, GPT2Model

    sizes = {"vocab_size": 32, "n_layer": 1, "n_head": 2, "n_embd": 16, "bos_token_id": None, "eos_token_id": None}
    return GPT2Model(GPT2Config(**sizes)).eval()


def llama() -> Any:
    """transformers' LlamaModel with LlamaConfig's defaults for positions (RoPE, θ = 10000), tiny widths."""
    from transformers import LlamaConfig, LlamaModel

    config = LlamaConfig(**TINY, hidden_size=16, intermediate_size=32, num_key_value_heads=2)
    return LlamaModel(config).eval()


def position_table_rows(model: Any) -> dict[str, int]:
    """Every nn.Embedding of ``model`` whose name mentions positions, with its number of rows."""
    import torch

    return {
        name: module.num_embeddings
        for name, module in model.named_modules()
        if isinstance(module, torch.nn.Embedding) and ("position" in name or name.endswith("wpe"))
    }


def rotary_modules(model: Any) -> list[str]:
    """The names of ``model``'s modules whose class name contains "Rotary"."""
    return [name for name, module in model.named_modules() if "Rotary" in type(module).__name__]


def hidden_states(model: Any, tokens: Any, shift: int) -> Any:
    """``model``'s last hidden states (NumPy) with the positions 0 … n − 1 moved to shift … n − 1 + shift."""
    import torch

    positions = torch.arange(tokens.shape[1])[None] + shift
    with torch.no_grad():
        return model(tokens, position_ids=positions).last_hidden_state.numpy()


def shift_change(model: Any, tokens: Any, shift: int) -> float:
    """The largest change of any hidden state when every position is moved by ``shift``."""
    return float(abs(hidden_states(model, tokens, shift) - hidden_states(model, tokens, 0)).max())


def longest_accepted(model: Any, lengths: tuple[int, ...]) -> dict[int, str]:
    """Feed ``model`` sequences of each length: "ok" or the exception it raised (type and first line)."""
    import torch

    outcomes = {}
    for length in lengths:
        try:
            with torch.no_grad():
                model(torch.zeros(1, length, dtype=torch.long))
            outcomes[length] = "ok"
        except Exception as error:  # any refusal is the measured outcome, reported with its type
            outcomes[length] = f"{type(error).__name__}: {str(error).splitlines()[0][:120]}"
    return outcomes


@dataclass(frozen=True)
class Architecture:
    model_type: str
    module: Path
    rotary: bool
    """The module calls a function or class whose name contains "rotary" (e.g. apply_rotary_pos_emb)."""


def causal_lm_architectures() -> tuple[list[Architecture], list[str]]:
    """Every model type transformers maps to a causal LM, read from its modeling module (ast, not imported);
    and the model types whose module is not a file of the library (remote code, aliases)."""
    import transformers
    from transformers.models.auto.configuration_auto import model_type_to_module_name
    from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING_NAMES

    models = Path(transformers.__file__).parent / "models"
    found, missing = [], []
    for model_type in sorted(MODEL_FOR_CAUSAL_LM_MAPPING_NAMES):
        name = model_type_to_module_name(model_type)
        path = models / name / f"modeling_{name}.py"
        if path.is_file():
            found.append(Architecture(model_type, path, calls_rotary(path.read_text(encoding="utf-8"))))
        else:
            missing.append(model_type)
    return found, missing


def calls_rotary(source: str) -> bool:
    """Whether code (not a comment or docstring) calls something named *rotary* (a function, class or method)."""
    if "rotary" not in source.lower():
        return False
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            called = node.func
            name = called.id if isinstance(called, ast.Name) else getattr(called, "attr", "")
            if "rotary" in name.lower():
                return True
    return False
