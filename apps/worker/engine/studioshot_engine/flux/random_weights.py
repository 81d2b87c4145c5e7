"""FLUX.1-architecture pipelines with random weights, built in code: for tests and benchmarks only.

Nothing is downloaded: the tokenizers are generated here (a byte-level CLIP vocabulary; a small
unigram T5 vocabulary trained with `tokenizers` on a few sentences), the models are made from their
configs. `TINY` runs the whole diffusers and peft path on a CPU in seconds; `FLUX1_DEV` has the
real model's shapes (12B transformer, T5-XXL), for speed and memory measurements on a GPU, where
they do not depend on the weights' values.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import torch
    from diffusers import FluxPipeline
    from transformers import CLIPTokenizer, T5TokenizerFast

T5_SENTENCES = [
    "a professional headshot of a person in a suit",
    "a close-up photo of a person smiling, head and shoulders",
    "studio portrait with soft light on a grey backdrop",
    "an executive portrait in a modern office, natural light",
    "a creative photo outdoors in a park with warm colors",
]


@dataclass(frozen=True)
class Architecture:
    transformer: dict[str, Any]
    vae: dict[str, Any]
    clip: dict[str, Any]
    t5: dict[str, Any]
    scheduler: dict[str, Any] = field(
        default_factory=lambda: {
            # FLUX.1-dev's scheduler config.
            "base_image_seq_len": 256,
            "base_shift": 0.5,
            "max_image_seq_len": 4096,
            "max_shift": 1.15,
            "num_train_timesteps": 1000,
            "shift": 3.0,
            "use_dynamic_shifting": True,
        }
    )


FLUX1_DEV = Architecture(
    transformer={
        "patch_size": 1,
        "in_channels": 64,
        "num_layers": 19,
        "num_single_layers": 38,
        "attention_head_dim": 128,
        "num_attention_heads": 24,
        "joint_attention_dim": 4096,
        "pooled_projection_dim": 768,
        "guidance_embeds": True,
        "axes_dims_rope": (16, 56, 56),
    },
    vae={
        "in_channels": 3,
        "out_channels": 3,
        "down_block_types": ["DownEncoderBlock2D"] * 4,
        "up_block_types": ["UpDecoderBlock2D"] * 4,
        "block_out_channels": (128, 256, 512, 512),
        "layers_per_block": 2,
        "latent_channels": 16,
        "norm_num_groups": 32,
        "sample_size": 1024,
        "scaling_factor": 0.3611,
        "shift_factor": 0.1159,
        "use_quant_conv": False,
        "use_post_quant_conv": False,
    },
    clip={
        "hidden_size": 768,
        "intermediate_size": 3072,
        "num_hidden_layers": 12,
        "num_attention_heads": 12,
        "max_position_embeddings": 77,
        "projection_dim": 768,
        "hidden_act": "quick_gelu",
        "vocab_size": 49408,
    },
    t5={
        "vocab_size": 32128,
        "d_model": 4096,
        "d_kv": 64,
        "d_ff": 10240,
        "num_layers": 24,
        "num_heads": 64,
        "relative_attention_num_buckets": 32,
        "feed_forward_proj": "gated-gelu",
    },
)

# The same structure, small enough for a CPU: 2 double- and 2 single-stream blocks, a 4-level VAE
# (8x downsampling as the real one, so a 256 px image is 16 x 16 tokens).
TINY = Architecture(
    transformer={
        "patch_size": 1,
        "in_channels": 16,
        "num_layers": 2,
        "num_single_layers": 2,
        "attention_head_dim": 16,
        "num_attention_heads": 2,
        "joint_attention_dim": 32,
        "pooled_projection_dim": 32,
        "guidance_embeds": True,
        "axes_dims_rope": (4, 6, 6),
    },
    vae={
        "in_channels": 3,
        "out_channels": 3,
        "down_block_types": ["DownEncoderBlock2D"] * 4,
        "up_block_types": ["UpDecoderBlock2D"] * 4,
        "block_out_channels": (8, 8, 16, 16),
        "layers_per_block": 1,
        "latent_channels": 4,
        "norm_num_groups": 4,
        "sample_size": 256,
        "scaling_factor": 0.3611,
        "shift_factor": 0.1159,
        "use_quant_conv": False,
        "use_post_quant_conv": False,
    },
    clip={
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_hidden_layers": 2,
        "num_attention_heads": 4,
        "max_position_embeddings": 77,
        "projection_dim": 32,
        "hidden_act": "quick_gelu",
    },
    t5={
        "d_model": 32,
        "d_kv": 8,
        "d_ff": 64,
        "num_layers": 2,
        "num_heads": 4,
        "relative_attention_num_buckets": 8,
        "feed_forward_proj": "gated-gelu",
    },
)


def clip_tokenizer() -> CLIPTokenizer:
    """CLIP's byte-level BPE with no merges: every byte a token, alone or ending a word."""
    from tokenizers.pre_tokenizers import ByteLevel  # noqa: PLC0415
    from transformers import CLIPTokenizer  # noqa: PLC0415

    alphabet = sorted(ByteLevel.alphabet())
    vocab = {symbol: index for index, symbol in enumerate(alphabet)}
    vocab.update({f"{symbol}</w>": len(alphabet) + index for index, symbol in enumerate(alphabet)})
    vocab["<|startoftext|>"] = len(vocab)
    vocab["<|endoftext|>"] = len(vocab)
    return CLIPTokenizer(vocab=vocab, merges=[], model_max_length=77)


def t5_tokenizer() -> T5TokenizerFast:
    """A small unigram vocabulary (T5's kind) trained on a few prompt-like sentences."""
    from tokenizers import SentencePieceUnigramTokenizer  # noqa: PLC0415
    from transformers import PreTrainedTokenizerFast, T5TokenizerFast  # noqa: PLC0415

    unigram = SentencePieceUnigramTokenizer()
    unigram.train_from_iterator(
        T5_SENTENCES,
        vocab_size=160,
        special_tokens=["<pad>", "</s>", "<unk>"],
        unk_token="<unk>",
        show_progress=False,
    )
    # T5 ends every sequence with </s>.
    from tokenizers.processors import TemplateProcessing  # noqa: PLC0415

    unigram.post_processor = TemplateProcessing(single="$A </s>", special_tokens=[("</s>", 1)])
    wrapped = PreTrainedTokenizerFast(tokenizer_object=unigram)
    with _temporary_dir() as directory:
        wrapped.save_pretrained(directory)
        return T5TokenizerFast.from_pretrained(
            directory, eos_token="</s>", pad_token="<pad>", unk_token="<unk>", extra_ids=0, model_max_length=512
        )


def build_pipeline(
    architecture: Architecture, *, device: str = "cpu", dtype: torch.dtype | None = None, seed: int = 0
) -> FluxPipeline:
    """A FluxPipeline of random weights made directly on `device` in `dtype` (no float32 copy on the way)."""
    import torch  # noqa: PLC0415
    from diffusers import AutoencoderKL, FlowMatchEulerDiscreteScheduler, FluxPipeline, FluxTransformer2DModel  # noqa: PLC0415
    from transformers import CLIPTextConfig, CLIPTextModel, T5Config, T5EncoderModel  # noqa: PLC0415

    dtype = dtype or torch.float32
    clip_tokens, t5_tokens = clip_tokenizer(), t5_tokenizer()
    clip_config = {"vocab_size": len(clip_tokens), **architecture.clip}
    t5_config = {"vocab_size": len(t5_tokens), **architecture.t5}
    torch.manual_seed(seed)
    with _made_on(device, dtype):
        transformer = FluxTransformer2DModel(**architecture.transformer)
        vae = AutoencoderKL(**architecture.vae)
        text_encoder = CLIPTextModel(
            CLIPTextConfig(
                **clip_config,
                bos_token_id=clip_tokens.bos_token_id,
                eos_token_id=clip_tokens.eos_token_id,
                pad_token_id=clip_tokens.pad_token_id,
            )
        )
        text_encoder_2 = T5EncoderModel(
            T5Config(**t5_config, is_encoder_decoder=False, use_cache=False, pad_token_id=0, eos_token_id=1)
        )
    pipe = FluxPipeline(
        scheduler=FlowMatchEulerDiscreteScheduler(**architecture.scheduler),
        vae=vae,
        text_encoder=text_encoder.eval(),
        tokenizer=clip_tokens,
        text_encoder_2=text_encoder_2.eval(),
        tokenizer_2=t5_tokens,
        transformer=transformer.eval(),
    )
    pipe.set_progress_bar_config(disable=True)
    return pipe


def save_tiny_weights(directory: Path, seed: int = 0) -> Path:
    """The tiny pipeline saved in the diffusers layout, as an operator's weights directory would be."""
    build_pipeline(TINY, seed=seed).save_pretrained(str(directory))
    return directory


@contextlib.contextmanager
def _made_on(device: str, dtype: torch.dtype) -> Iterator[None]:
    import torch  # noqa: PLC0415

    previous = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        with torch.device(device):
            yield
    finally:
        torch.set_default_dtype(previous)


@contextlib.contextmanager
def _temporary_dir() -> Iterator[str]:
    import tempfile  # noqa: PLC0415

    with tempfile.TemporaryDirectory() as directory:
        yield directory


if __name__ == "__main__":
    # `python -m studioshot_engine.flux.random_weights DIR`: the tiny pipeline as a weights directory
    # (the worker's flux tests make theirs so).
    import sys

    from .weights import offline

    offline()
    print(save_tiny_weights(Path(sys.argv[1])))
