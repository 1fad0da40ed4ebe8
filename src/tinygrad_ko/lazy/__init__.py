"""제6고지의 지연 엔진: 연산을 그래프로 적어 두었다가, 커널로 잘라 융합하고, 코드를 생성해 돌립니다.

    from tinygrad_ko import lazy
    x = lazy.Tensor(np.ones((1000, 1000), np.float32), requires_grad=True)
    y = ((x * 2.0 + 1.0).relu() - x).sum()
    y.numpy()        # 여기서 비로소 계산합니다
    y.backward()     # 최종 엔진의 backward 규칙으로 미분값도 지연 그래프로 기록합니다
    x.grad.numpy()

모듈마다 한 가지 생각입니다: `graph`(노드), `tensor`(사용자가 쓰는 텐서), `gradients`(엔진의 규칙으로
역전파), `view`(모양과 보폭), `scheduler`(커널로 자르기, 융합), `memory`(버퍼 돌려 쓰기), `render_numpy`와
`render_c`(코드 생성), `compiler`와 `cache`(컴파일과 커널 캐시), `runner`(백엔드를 골라 실행), `replay`(기록한 계획을 되풀이), `draw`(그래프와 커널을 mermaid 그림으로).
"""

from .compiler import CompilerWarning
from .draw import to_mermaid
from .replay import Replay
from .runner import backend, set_backend, show_kernels, source, using_backend
from .scheduler import Kernel
from .tensor import Tensor, realize_all


def realize(*tensors: Tensor) -> None:
    """여러 텐서의 값을 한 번의 스케줄로 계산합니다(함께 쓰는 부분은 한 번만 계산합니다)."""
    realize_all(*tensors)


def schedule(*tensors: Tensor) -> list[Kernel]:
    """텐서들을 계산할 커널 목록(실행 순서). 계산하지는 않습니다. 소스는 `lazy.source(kernel)`로 봅니다."""
    from .scheduler import schedule as _schedule

    kernels, _ = _schedule([t.lazydata for t in tensors if t.lazydata.realized is None])
    return kernels


__all__ = [
    "CompilerWarning",
    "Kernel",
    "Replay",
    "Tensor",
    "backend",
    "realize",
    "schedule",
    "set_backend",
    "show_kernels",
    "source",
    "to_mermaid",
    "using_backend",
]
