"""Export a model that has no ONNX upstream (E11: nlpaueb/legal-bert-small-uncased) to a folder
that `casetrack models import DIR` accepts: E11/model.onnx + tokenizer.json + manifest.json.

    uv run --with torch --with transformers python scripts/convert_models.py E11 --revision <commit> --out DIR
    casetrack models import DIR

Needs torch and transformers (an optional `convert` extra; never runtime dependencies) and
network access to the Hugging Face hub. The revision is required: pass the commit you
reviewed, it is recorded in the manifest together with the SHA-256 of both files.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from casetrack.embed.sources import write_manifest
from casetrack.embed.specs import MODEL_FILE, TOKENIZER_FILE, get_spec


def export(model_id: str, revision: str, out: Path, opset: int = 17) -> Path:
    """Export `model_id` at `revision` into out/<id>/ with token states as `last_hidden_state`."""
    try:
        import torch
        from transformers import AutoModel, AutoTokenizer
    except ImportError:
        sys.exit("convert_models.py needs torch and transformers: uv run --with torch --with transformers ...")
    spec = get_spec(model_id)
    if spec.convert_from is None:
        sys.exit(f"{spec.id} has an ONNX export upstream: use `casetrack models download {spec.id}` instead.")
    target = out / spec.id
    target.mkdir(parents=True, exist_ok=True)
    tokenizer = AutoTokenizer.from_pretrained(spec.convert_from, revision=revision)
    if not tokenizer.is_fast:
        sys.exit(f"{spec.convert_from} has no fast tokenizer, so no tokenizer.json can be written.")
    tokenizer.backend_tokenizer.save(str(target / TOKENIZER_FILE))
    model = AutoModel.from_pretrained(spec.convert_from, revision=revision).eval()
    sample = tokenizer(["a short example", "a somewhat longer example sentence"], padding=True, return_tensors="pt")
    inputs = (sample["input_ids"], sample["attention_mask"], sample["token_type_ids"])
    axes = {0: "batch", 1: "sequence"}
    with torch.no_grad():
        torch.onnx.export(
            model,
            inputs,
            str(target / MODEL_FILE),
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["last_hidden_state"],
            dynamic_axes={"input_ids": axes, "attention_mask": axes, "token_type_ids": axes, "last_hidden_state": axes},
            opset_version=opset,
        )
    hidden = model(*inputs).last_hidden_state
    if hidden.shape[-1] != spec.dim:
        sys.exit(f"{spec.convert_from} produced width {hidden.shape[-1]}, the registry says {spec.dim}.")
    upstream = {MODEL_FILE: f"{spec.convert_from}@{revision} (exported)", TOKENIZER_FILE: "tokenizer.json"}
    write_manifest(target, spec, "convert", revision, upstream)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model_id", help="registry id, e.g. E11")
    parser.add_argument("--revision", required=True, help="Hugging Face commit of the source checkpoint")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    target = export(args.model_id, args.revision, args.out)
    print(f"wrote {target}; now run: casetrack models import {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
