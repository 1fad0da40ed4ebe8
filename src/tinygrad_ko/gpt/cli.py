"""`python3 -m tinygrad_ko.gpt`의 두 명령.

    python3 -m tinygrad_ko.gpt train --data ko --steps 1000            # 학습하고 gpt-ko.npz 에 저장
    python3 -m tinygrad_ko.gpt sample --n 20 --temperature 0.5         # gpt-ko.npz 에서 이름 20개

`train`은 가중치를 `--out`(기본값 `gpt-<data>.npz`)에, 설정과 스텝마다의 손실을 같은 이름의 `.json`에
씁니다. `sample`은 그 두 파일을 읽습니다. `--engine value`는 스칼라 `Value`판으로, `tensor`(기본값)는
텐서판으로 학습합니다. 두 판은 같은 시드에서 같은 손실을 냅니다(빠르기만 다릅니다).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .checkpoint import load_checkpoint, save_checkpoint
from .config import GPTConfig, init_weights
from .data import load_names
from .sampling import sample_names
from .training import Progress, train

ENGINES = ("tensor", "value")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python3 -m tinygrad_ko.gpt", description="이름으로 학습하는 작은 GPT(한국어 microGPT)"
    )
    commands = parser.add_subparsers(dest="command", required=True)
    learn = commands.add_parser("train", help="이름 목록으로 학습하고 가중치를 저장합니다.")
    learn.add_argument("--data", choices=("ko", "en"), default="ko", help="ko: 한국어, en: 영어")
    learn.add_argument("--steps", type=int, default=1000, help="학습 스텝 수(스텝마다 이름 하나)")
    learn.add_argument("--lr", type=float, default=0.01, help="처음 학습률(끝에서 0까지 선형 감소)")
    learn.add_argument("--seed", type=int, default=0, help="처음 가중치와 이름 순서의 시드")
    learn.add_argument("--engine", choices=ENGINES, default="tensor")
    learn.add_argument("--out", type=Path, help="가중치 파일(.npz). 기본값: gpt-<data>.npz")
    draw = commands.add_parser("sample", help="저장한 모델에서 이름을 뽑습니다.")
    draw.add_argument("--weights", type=Path, help="train이 저장한 .npz. 기본값: gpt-ko.npz")
    draw.add_argument("--n", type=int, default=20, help="뽑을 이름 수")
    draw.add_argument("--temperature", type=float, default=0.5, help="온도(0보다 큰 수)")
    draw.add_argument("--seed", type=int, default=0, help="샘플링 시드")
    return parser


def make_engine(kind: str, config: GPTConfig, weights):
    """학습 엔진과, 학습이 끝난 뒤 가중치 사전을 꺼내는 함수."""
    if kind == "value":
        from .training import ValueEngine
        from .value_model import ValueGPT

        model = ValueGPT(config, weights)
        return ValueEngine(model), model.state_dict
    from .tensor_model import TensorEngine, TensorGPT

    model = TensorGPT(config, weights)
    return TensorEngine(model), model.state_dict


def cmd_train(args: argparse.Namespace) -> None:
    names, tokenizer = load_names(args.data)
    config = GPTConfig(tokenizer.vocab_size)
    engine, state = make_engine(args.engine, config, init_weights(config, args.seed))
    progress = Progress(args.steps)
    losses = train(
        engine, names, tokenizer, args.steps, lr=args.lr, seed=args.seed, progress=progress
    )
    out = args.out or Path(f"gpt-{args.data}.npz")
    meta = {
        "data": args.data,
        "steps": args.steps,
        "lr": args.lr,
        "seed": args.seed,
        "engine": args.engine,
        "steps_per_second": progress.rate(),
        "losses": losses,
    }
    save_checkpoint(out, config, state(), meta)
    print(
        f"이름 {len(names):,}개, 매개변수 {sum(a.size for a in state().values()):,}개, {args.steps}스텝"
    )
    print(f"마지막 100스텝의 평균 손실: {sum(losses[-100:]) / len(losses[-100:]):.4f}")
    print(f"저장했습니다: {out} (설정과 손실: {out.with_suffix('.json')})")


def cmd_sample(args: argparse.Namespace) -> None:
    path = args.weights or Path("gpt-ko.npz")
    config, weights, meta = load_checkpoint(path)
    _, tokenizer = load_names(meta["data"])
    from .tensor_model import TensorGPT

    model = TensorGPT(config, weights)
    for name in sample_names(
        model.logits,
        tokenizer,
        config.block_size,
        args.n,
        temperature=args.temperature,
        seed=args.seed,
    ):
        print(name)


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    try:
        cmd_train(args) if args.command == "train" else cmd_sample(args)
    except (ValueError, FileNotFoundError) as error:
        sys.exit(f"오류: {error}")
