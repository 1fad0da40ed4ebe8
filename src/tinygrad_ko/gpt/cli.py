"""`python3 -m tinygrad_ko.gpt`의 두 명령.

    python3 -m tinygrad_ko.gpt train --data ko --steps 1000            # 학습하고 gpt-ko.npz 에 저장
    python3 -m tinygrad_ko.gpt sample --n 20 --temperature 0.5         # gpt-ko.npz 에서 이름 20개

`train`은 가중치를 `--out`(기본값 `gpt-<data>.npz`)에, 설정과 스텝마다의 손실을 그 이름 끝에 `.json`을
붙인 파일(`gpt-ko.npz.json`)에 씁니다. `sample`은 그 두 파일을 읽습니다. `--engine value`는 스칼라 `Value`판으로, `tensor`(기본값)는
텐서판으로 학습합니다. 두 판은 같은 시드에서 같은 손실을 냅니다(빠르기만 다릅니다).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from .arguments import KoreanArgumentParser, finite_float, integer
from .checkpoint import load_checkpoint, save_checkpoint, save_targets, sidecar_path
from .config import GPTConfig, init_weights
from .data import load_names
from .sampling import iter_names
from .training import Progress, train

ENGINES = ("tensor", "value")
SUMMARY_STEPS = 100  # 마지막 몇 스텝의 평균 손실을 알릴지


def build_parser() -> argparse.ArgumentParser:
    parser = KoreanArgumentParser(
        prog="python3 -m tinygrad_ko.gpt",
        description="이름으로 학습하는 작은 GPT(한국어 microGPT)",
        epilog="명령마다의 옵션: python3 -m tinygrad_ko.gpt train -h, … sample -h",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    learn = commands.add_parser(
        "train",
        help="이름 목록으로 학습하고 가중치를 저장합니다.",
        description="이름 목록으로 학습하고 가중치와 설정을 저장합니다.",
    )
    learn.add_argument(
        "--data", choices=("ko", "en"), default="ko", help="ko: 한국어, en: 영어(기본값: ko)"
    )
    learn.add_argument(
        "--steps",
        metavar="스텝수",
        type=integer(1),
        default=1000,
        help="학습 스텝 수(스텝마다 이름 하나, 기본값: 1000)",
    )
    learn.add_argument(
        "--lr",
        metavar="학습률",
        type=finite_float(),
        default=0.01,
        help="처음 학습률(0보다 큰 수, 끝에서 0까지 선형 감소, 기본값: 0.01)",
    )
    learn.add_argument(
        "--seed",
        metavar="시드",
        type=integer(0),
        default=0,
        help="처음 가중치와 이름 순서의 시드(0 이상의 정수, 기본값: 0)",
    )
    learn.add_argument(
        "--engine",
        choices=ENGINES,
        default="tensor",
        help="tensor: 텐서판(빠름), value: 스칼라 Value판(같은 손실, 느림). 기본값: tensor",
    )
    learn.add_argument(
        "--out",
        metavar="파일",
        type=Path,
        help="가중치 파일(.npz). 설정은 그 이름 끝에 .json을 붙인 파일에. 기본값: gpt-<data>.npz",
    )
    draw = commands.add_parser(
        "sample",
        help="저장한 모델에서 이름을 뽑습니다.",
        description="train이 저장한 모델에서 이름을 뽑습니다.",
    )
    draw.add_argument(
        "--weights", metavar="파일", type=Path, help="train이 저장한 .npz(기본값: gpt-ko.npz)"
    )
    draw.add_argument(
        "--n", metavar="개수", type=integer(0), default=20, help="뽑을 이름 수(0 이상, 기본값: 20)"
    )
    draw.add_argument(
        "--temperature",
        metavar="온도",
        type=finite_float(),
        default=0.5,
        help="온도(0보다 큰 수, 기본값: 0.5)",
    )
    draw.add_argument(
        "--seed",
        metavar="시드",
        type=integer(0),
        default=0,
        help="샘플링 시드(0 이상의 정수, 기본값: 0)",
    )
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
    out = args.out or Path(f"gpt-{args.data}.npz")
    # 학습 전에 두 파일을 쓸 수 있는지, 덮어써도 되는지 봅니다(몇 분 학습한 뒤에 알리지 않게).
    save_targets(out)
    names, tokenizer = load_names(args.data)
    config = GPTConfig(tokenizer.vocab_size)
    engine, state = make_engine(args.engine, config, init_weights(config, args.seed))
    progress = Progress(args.steps)
    # 발산은 train이 손실로 알아보고 한국어로 알리므로, 그 앞에 나오는 NumPy의 영어 경고(overflow)는 끕니다.
    with np.errstate(all="ignore"):
        losses = train(
            engine, names, tokenizer, args.steps, lr=args.lr, seed=args.seed, progress=progress
        )
    weights = state()
    if not all(
        np.isfinite(array).all() for array in weights.values()
    ):  # 마지막 스텝이 망가뜨린 가중치
        raise FloatingPointError(
            f"학습을 마친 가중치에 inf나 NaN이 있어 저장하지 않습니다(예전 {out}은(는) 그대로입니다). "
            f"학습률 --lr {args.lr:g}을(를) 줄여 다시 학습하세요. 기본값은 0.01입니다."
        )
    meta = {
        "data": args.data,
        "steps": args.steps,
        "lr": args.lr,
        "seed": args.seed,
        "engine": args.engine,
        "steps_per_second": progress.rate(),
        "losses": losses,
    }
    save_checkpoint(out, config, weights, meta)
    last = losses[-SUMMARY_STEPS:]
    print(
        f"이름 {len(names):,}개, 매개변수 {sum(a.size for a in weights.values()):,}개, {args.steps}스텝"
    )
    print(f"마지막 {len(last)}스텝의 평균 손실: {sum(last) / len(last):.4f}")
    print(f"저장했습니다: {out} (설정과 손실: {sidecar_path(out)})")


def cmd_sample(args: argparse.Namespace) -> None:
    path = args.weights or Path("gpt-ko.npz")
    config, weights, meta = load_checkpoint(path)
    _, tokenizer = load_names(meta["data"])
    from .tensor_model import TensorGPT

    model = TensorGPT(config, weights)
    # 하나씩 뽑아 바로 씁니다: 모두 모은 뒤 쓰면 아주 큰 --n에서 아무것도 나오지 않은 채 메모리만 찹니다.
    for name in iter_names(
        model.logits,
        tokenizer,
        config.block_size,
        args.n,
        temperature=args.temperature,
        seed=args.seed,
    ):
        print(name, flush=True)


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    try:
        cmd_train(args) if args.command == "train" else cmd_sample(args)
    except PermissionError as error:
        if error.filename is None:  # 라이브러리가 한국어로 만든 오류
            sys.exit(f"오류: {error}")
        # 운영 체제의 오류([Errno 13] Permission denied: ...)는 영어이므로 한국어로 바꿉니다.
        sys.exit(
            f"오류: {error.filename}에 접근할 권한이 없습니다. 파일의 권한(ls -l, chmod)을 확인하거나 "
            f"읽고 쓸 수 있는 경로를 주세요."
        )
    except (ValueError, TypeError, OSError, FloatingPointError) as error:
        sys.exit(f"오류: {error}")
