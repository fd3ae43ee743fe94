"""The sinusoidal encoding is not a learned parameter: the document's class holds it as a buffer."""

from checks import Claim
from claims.catalog.lesson_code import DocumentCodeError, definitions, failure, run_script
from claims.catalog.works import LESSON_000, LESSON_001

TRAINING_DRIVER = """
import json

torch.manual_seed(0)
module = PositionalEncoding(16, max_len=32)
facts = {
    "parameters": [name for name, _ in module.named_parameters()],
    "parameter_count": sum(p.numel() for p in module.parameters()),
    "buffers": [name for name, _ in module.named_buffers()],
    "state_dict": sorted(module.state_dict()),
    "pe_requires_grad": module.pe.requires_grad,
}
try:
    torch.optim.SGD(module.parameters(), lr=0.1)
    facts["optimizer_over_the_module_alone"] = "built"
except Exception as error:
    facts["optimizer_over_the_module_alone"] = f"{type(error).__name__}: {error}"
embedding, head = torch.nn.Embedding(10, 16), torch.nn.Linear(16, 1)
model = torch.nn.ModuleList([embedding, module, head])
optimizer = torch.optim.Adam(model.parameters(), lr=0.1)
pe_before, weight_before = module.pe.clone(), embedding.weight.detach().clone()
tokens = torch.randint(0, 10, (4, 12))
for _ in range(3):
    optimizer.zero_grad()
    head(module(embedding(tokens))).pow(2).mean().backward()
    optimizer.step()
facts["pe_change_after_3_adam_steps"] = float((module.pe - pe_before).abs().max())
facts["embedding_change_after_3_adam_steps"] = float((embedding.weight - weight_before).abs().max())
facts["pe_grad_is_none"] = module.pe.grad is None
facts["optimizer_holds_pe"] = any(p is module.pe for group in optimizer.param_groups for p in group["params"])
fresh = PositionalEncoding(16, max_len=32)
fresh.load_state_dict(module.state_dict())
facts["state_dict_round_trip_equal"] = bool(torch.equal(fresh.pe, module.pe))
facts["pe_dtype_after_module_double"] = str(module.double().pe.dtype)
default = PositionalEncoding(512)
facts["default_pe_shape_d512"] = list(default.pe.shape)
facts["default_pe_bytes_in_state_dict_d512"] = default.pe.numel() * default.pe.element_size()
with open("out/values.json", "w") as stream:
    json.dump(facts, stream)
"""

claim = Claim(
    id="pe.not-learned",
    title="The sinusoidal table is a buffer, not a parameter",
    statement=(
        "Document 000's PositionalEncoding registers pe with register_buffer: it has no parameters, an optimizer "
        "step (Adam, three steps, with a learned embedding and head around it) leaves pe unchanged while the "
        "embedding moves, and pe is still saved in the state_dict."
    ),
    sources=[
        LESSON_001.quote("2. Sinusoidal Positional Encoding", "positional encoding은 학습 파라미터가 아닙니다."),
        LESSON_000.quote("PyTorch로 보는 Positional Encoding (참고용)", 'self.register_buffer("pe", pe)'),
    ],
    expect="holds",
)


@claim.probe
def document_class_in_training(r):
    """Document 000's class, verbatim, in one subprocess: parameters, buffers, an Adam step, the state_dict."""
    run = run_script(definitions("torch") + TRAINING_DRIVER)
    if run.returncode:
        raise DocumentCodeError(failure(run))
    facts = run.values
    for key, value in facts.items():
        r.measure(key.replace("_", " "), value)
    if not facts["embedding_change_after_3_adam_steps"] > 0:
        raise AssertionError("the training step moved nothing: the experiment says nothing about pe")
    if facts["parameter_count"] or facts["pe_change_after_3_adam_steps"] or facts["optimizer_holds_pe"]:
        r.counterexample("the document's positional encoding is trained", **facts)
    if "pe" not in facts["state_dict"] or not facts["state_dict_round_trip_equal"]:
        r.counterexample("pe is not saved and restored with the state_dict", **facts)
