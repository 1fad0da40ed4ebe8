"""되풀이(replay): 함수를 한 번 기록하고, 다음부터는 같은 커널들을 새 입력으로 다시 돌립니다(tinygrad의 TinyJit).

지연 텐서의 연산은 부를 때마다 그래프를 새로 만들고, 스케줄하고, 커널을 찾습니다. 같은 모양의 입력으로
같은 계산을 되풀이한다면(학습 루프의 한 스텝처럼) 그 일은 처음 한 번이면 됩니다. `Replay(f)`는 처음 부를
때 f가 돌려준 텐서들의 계획(`runner.Plan`: 커널, 돌릴 함수, 버퍼 계획)을 입력의 모양과 dtype, 백엔드별로
적어 두고, 다음부터는 입력 버퍼만 바꿔 끼워 그 계획을 돌립니다. 입력의 `requires_grad`도 계획을 가릅니다.

약속: f의 인수는 지연 텐서이고, f는 계산하지 않은 텐서(하나 또는 튜플)를 돌려줍니다. 기록한 계획은 처음
부를 때의 값을 담으므로, 그 값이 바뀔 수 있는 것은 막습니다: f 안에서 값을 꺼내거나(`.numpy()`) 인수가 아닌
텐서(바깥 변수의 텐서, f 안에서 ndarray로 만든 텐서)를 읽으면 처음 부를 때 한국어 ValueError를 냅니다.
f가 읽는 파이썬 수(바깥 변수의 수 포함)는 알아챌 수 없으며, 처음 부를 때의 값으로 계획에 들어갑니다.
"""

from __future__ import annotations

from collections.abc import Callable

from . import graph, messages
from .runner import Plan, backend, recording
from .tensor import Tensor


class Replay:
    def __init__(self, fn: Callable) -> None:
        self.fn = fn
        self.plans: dict[
            tuple, tuple
        ] = {}  # (백엔드, 입력의 모양·dtype·requires_grad, 같은 입력의 자리) -> (계획, 입력 노드 id들, 하나인지)

    def __call__(self, *args: Tensor) -> Tensor | tuple[Tensor, ...]:
        for a in args:
            if not isinstance(a, Tensor):
                raise messages.bad_operand(a)
            a.numpy()  # 입력은 값을 가진 버퍼여야 바꿔 끼울 수 있습니다
        # 같은 텐서를 두 자리에 준 것도 열쇠에 넣습니다: 그렇게 기록한 계획은 두 입력을 한 버퍼로 읽습니다.
        same_as = tuple(
            next(j for j, b in enumerate(args) if b.lazydata is a.lazydata) for a in args
        )
        # requires_grad도 넣습니다: f가 backward를 부르면 계획이 그에 따라 달라집니다(미분값을 구하거나 오류를 냄).
        key = (backend(), tuple((a.shape, a.dtype.str, a.requires_grad) for a in args), same_as)
        if key not in self.plans:
            self.plans[key] = self._capture(args)
        plan, arg_ids, single = self.plans[key]
        bindings = {i: a.lazydata.realized for i, a in zip(arg_ids, args, strict=True)}
        outs = tuple(Tensor.from_lazy(graph.buffer(data)) for data in plan.run(bindings))
        return outs[0] if single else outs

    def _capture(self, args: tuple[Tensor, ...]) -> tuple:
        # 인수마다 새 노드로 부릅니다. 바깥 텐서를 인수로도 주었을 때 함수 안의 그 텐서가 인수 자리로
        # 기록되지 않게 하려는 것입니다(같은 텐서를 두 자리에 주었으면 새 노드도 하나).
        fresh: dict[int, Tensor] = {}
        for a in args:
            if id(a.lazydata) not in fresh:
                node = graph.buffer(a.lazydata.realized)
                fresh[id(a.lazydata)] = Tensor.from_lazy(node, requires_grad=a.requires_grad)
        args = tuple(fresh[id(a.lazydata)] for a in args)
        with recording():
            result = self.fn(*args)
        single = isinstance(result, Tensor)
        outs = (result,) if single else tuple(result)
        nodes = [t.lazydata for t in outs if isinstance(t, Tensor)]
        if len(nodes) != len(outs) or any(n.realized is not None for n in nodes):
            raise messages.replay_needs_lazy_results()
        plan, arg_ids = Plan(nodes), [id(a.lazydata) for a in args]
        for node in plan.reads():  # 바꿔 끼울 수 없는 값은 계획에 처음 값으로 박힙니다
            if id(node) not in arg_ids and not graph.is_constant_buffer(node):
                raise messages.replay_outside_tensor(node.shape, node.dtype)
        return plan, arg_ids, single
