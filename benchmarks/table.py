"""측정 결과를 마크다운으로: 환경 설명, 작업별 표, 같은 실행 안에서 구한 비율과 목표, 각주.

목표와 그 기준은 여기가 아니라 `targets.py`의 표에 있습니다. 이 모듈은 그 표를 읽어 그립니다.

`results[엔진][작업]`은 하위 프로세스가 돌려준 결과(payload)입니다.
상태는 "ok"(측정값은 "data"), "error"(파이썬 예외, "kind"), "timeout", "crash" 가운데 하나입니다.
가장 깊은 사슬(`depth`)만은 실행기가 길이별 결과를 모은 {"largest", "failure", "tried"}입니다.
"""

from __future__ import annotations

import operator
from collections.abc import Callable

from engines import (
    AFFINE,
    AFFINE_MEMORY,
    CHAIN,
    CNN,
    CONV,
    DEPTH,
    DIGITS,
    ELEMENTWISE,
    ELEMENTWISE_CONST,
    ENGINES,
    FANIN,
    GPT,
    LAZY_BACKWARD,
    LAZY_CHAIN,
    LAZY_CHAIN_LARGE,
    LAZY_COMPILE,
    LAZY_TRAIN,
    LSTM,
    MATMUL,
    MEMORY,
    MLP,
)
from stats import Summary, summarize
from targets import TARGETS, Target
from workloads import Sizes

DASH = "—"
RSS_MARK = " †"


# --- 수와 칸 --------------------------------------------------------------------------
def number(x: float) -> str:
    if x >= 1000:
        return f"{x:,.0f}"
    if x >= 100:
        return f"{x:.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def spread(s: Summary) -> str:
    """중앙값 (Q1–Q3)."""
    return f"{number(s.median)} ({number(s.q1)}–{number(s.q3)})"


def failure_text(payload: dict) -> str:
    status = payload.get("status")
    if status == "timeout":
        return f"시간 초과(>{payload['seconds']:g} s)"
    if status == "crash":
        return f"비정상 종료({payload['signal']})"
    kind = payload.get("kind", "오류")
    return "틀린 미분값" if kind == "WrongGradient" else kind


def _data(results: dict, key: str, workload: str) -> dict | None:
    payload = results.get(key, {}).get(workload)
    if payload is None or payload.get("status") != "ok":
        return None
    return payload["data"]


def _cell(results: dict, key: str, workload: str, show: Callable[[dict], str]) -> str:
    """작업이 없는 엔진은 —, 실패는 실패의 종류, 성공은 `show(data)`."""
    if workload not in ENGINES[key].workloads:
        return DASH
    payload = results.get(key, {}).get(workload)
    if payload is None:
        return "재지 않음"
    if payload.get("status") != "ok":
        return failure_text(payload)
    return show(payload["data"])


def depth_cell(results: dict, key: str) -> str:
    info = results.get(key, {}).get(DEPTH)
    if info is None:
        return "재지 않음"
    largest, failure = info["largest"], info["failure"]
    if failure is None:
        return f"≥ {largest:,}"
    why = failure_text(failure)
    if largest is None:
        return f"< {failure['n']:,} ({why})"
    return f"{largest:,} ({failure['n']:,}에서 {why})"


def memory_cell(results: dict, key: str, field: str) -> str:
    def show(data: dict) -> str:
        value = data.get(field)
        if value is None:
            return DASH  # no_grad가 없는 단계
        return f"{value:.1f}" + (RSS_MARK if data["method"] == "rss" else "")

    return _cell(results, key, MEMORY, show)


# --- 작업별 표 ------------------------------------------------------------------------
def workload_rows(results: dict, sizes: Sizes) -> list[tuple[str, Callable[[str], str]]]:
    k1, k2 = sizes.fanin_ks
    n, m = sizes.elementwise_n, sizes.matmul_n
    array_mb = 8 * n_elements(sizes.memory_shape) / 1e6

    def chain(field: str) -> Callable[[str], str]:
        return lambda key: _cell(results, key, CHAIN, lambda d: spread(summarize(d[field])))

    def fan(k: int) -> Callable[[str], str]:
        return lambda key: _cell(results, key, FANIN, lambda d: spread(summarize(d["ms"][str(k)])))

    def growth(key: str) -> str:
        def show(d: dict) -> str:
            a, b = summarize(d["ms"][str(k1)]).median, summarize(d["ms"][str(k2)]).median
            return f"{b / a:.1f}배"

        return _cell(results, key, FANIN, show)

    def times(d: dict) -> str:
        return f"{number(summarize(d['engine_ms']).median)} / {number(summarize(d['numpy_ms']).median)}"

    def ratio(workload: str) -> Callable[[str], str]:
        return lambda key: _cell(results, key, workload, lambda d: spread(summarize(d["ratio"])))

    def lazy_times(workload: str, fields: tuple[str, ...]) -> Callable[[str], str]:
        def show(d: dict) -> str:
            if not d[fields[0]]:
                return f"잴 것 없음({d['backend']} 백엔드)"
            cells = " / ".join(number(summarize(d[f]).median) for f in fields)
            return f"{cells} ({d['backend']})"

        return lambda key: _cell(results, key, workload, show)

    def peak(d: dict) -> str:
        mark = RSS_MARK if d["method"] == "rss" else ""
        return f"{number(d['record_peak'])}{mark} ({d['record_peak'] / d['array_mb']:.1f}개)"

    return [
        (
            f"0차원 사슬 `y = y * c`(길이 {sizes.chain_ops}) 순전파, µs/연산",
            chain("forward_us"),
        ),
        ("0차원 사슬 역전파, µs/연산", chain("backward_us")),
        (
            f"역전파가 성공하는 가장 깊은 사슬({sizes.depths[0]:,}부터 10배씩)",
            lambda key: depth_cell(results, key),
        ),
        (f"가지 K = {k1:,}: `sum(x * c_i)`의 역전파, ms", fan(k1)),
        (f"가지 K = {k2:,}: 역전파, ms", fan(k2)),
        (f"K를 {k2 // k1}배로 늘릴 때 역전파 시간의 배율", growth),
        (
            f"{n}×{n} float64 원소별 연산 20개(w는 상수), 순전파+역전파: NumPy만으로 한 같은 "
            f"계산의 몇 배",
            ratio(ELEMENTWISE_CONST),
        ),
        (
            "같은 작업에 걸린 시간, ms(엔진 / NumPy)",
            lambda key: _cell(results, key, ELEMENTWISE_CONST, times),
        ),
        (f"{n}×{n} 원소별 연산 20개(w도 미분): NumPy의 몇 배", ratio(ELEMENTWISE)),
        (
            "같은 작업에 걸린 시간, ms(엔진 / NumPy)",
            lambda key: _cell(results, key, ELEMENTWISE, times),
        ),
        (
            f"{n}×{n} `y = y * c + d` {sizes.affine_steps}번, 순전파+역전파 ms",
            lambda key: _cell(results, key, AFFINE, lambda d: spread(summarize(d["ms"]))),
        ),
        (
            "같은 사슬을 기록한 순전파의 최대 MB(배열 개수)",
            lambda key: _cell(results, key, AFFINE_MEMORY, peak),
        ),
        (
            f"최대 MB, `square` 20번(배열 하나 {array_mb:g} MB): 그래프를 기록하는 순전파",
            lambda key: memory_cell(results, key, "record_peak"),
        ),
        ("최대 MB: `no_grad` 순전파", lambda key: memory_cell(results, key, "no_grad_peak")),
        ("최대 MB: 역전파 중", lambda key: memory_cell(results, key, "backward_peak")),
        (
            "역전파 뒤 `y`를 쥔 채 남은 MB",
            lambda key: memory_cell(results, key, "held_after_backward"),
        ),
        (
            f"{m}×{m} 행렬 곱 {sizes.matmul_chain}개의 사슬, 순전파+역전파: NumPy만으로 한 같은 "
            "계산의 몇 배",
            ratio(MATMUL),
        ),
        ("같은 작업에 걸린 시간, ms(엔진 / NumPy)", lambda key: _cell(results, key, MATMUL, times)),
        (
            "두 층 신경망(1→10→1, 배치 100×1) 학습 스텝 하나, µs",
            lambda key: _cell(results, key, MLP, lambda d: spread(summarize(d["step_us"]))),
        ),
        (
            f"손글씨 숫자 {sizes.digits_samples:,}장 한 에포크(784→100→10, ReLU, 배치 100, SGD), ms",
            lambda key: _cell(results, key, DIGITS, lambda d: spread(summarize(d["epoch_ms"]))),
        ),
        (
            "합성곱 64×1×28×28, 필터 16개 5×5, 순전파+역전파(gx, gW, gb), ms",
            lambda key: _cell(results, key, CONV, lambda d: spread(summarize(d["ms"]))),
        ),
        (
            f"손글씨 숫자 {sizes.cnn_samples:,}장 CNN 한 에포크(conv 8@5×5 → pool → conv 16@5×5 → "
            "pool → linear, 배치 100, SGD), ms",
            lambda key: _cell(results, key, CNN, lambda d: spread(summarize(d["epoch_ms"]))),
        ),
        (
            "LSTM 잘린 역전파 한 스텝(배치 30, 은닉 100, 30시각 + SGD), ms",
            lambda key: _cell(results, key, LSTM, lambda d: spread(summarize(d["step_ms"]))),
        ),
        (
            "한국어 microGPT 학습 스텝(이름 하나: 순전파+역전파+Adam), ms",
            lambda key: _cell(results, key, GPT, lambda d: spread(summarize(d["ms"]))),
        ),
        (
            f"제6고지: {n}×{n} float32 원소별 연산 20개(× + − relu 부호를 네 번) 순전파, ms: NumPy"
            "(연산마다 임시 배열) / `np.copyto` / 지연 텐서 / 지연 되풀이(`Replay`) (백엔드)",
            lazy_times(LAZY_CHAIN, ("numpy_ms", "copy_ms", "lazy_ms", "replay_ms")),
        ),
        (
            f"같은 사슬을 큰 배열에서: {sizes.lazy_large_n}×{sizes.lazy_large_n}(배열 하나 "
            f"{sizes.lazy_large_n**2 * 4 / 1e6:g} MB), ms: NumPy / `np.copyto` / 지연 텐서 / 지연 되풀이",
            lazy_times(LAZY_CHAIN_LARGE, ("numpy_ms", "copy_ms", "lazy_ms", "replay_ms")),
        ),
        (
            "같은 사슬의 합을 역전파해 x의 미분값까지, ms: 최종 엔진 / 지연 텐서 / 지연 되풀이",
            lazy_times(LAZY_BACKWARD, ("eager_ms", "lazy_ms", "replay_ms")),
        ),
        (
            f"학습 스텝({n}×{n} float32, relu((x·w).sum(1) + b)의 제곱 오차, 경사 하강), ms: 최종 엔진 "
            "/ 지연 텐서 / 지연 되풀이",
            lazy_times(LAZY_TRAIN, ("eager_ms", "lazy_ms", "replay_ms")),
        ),
        (
            "커널 하나를 처음 부를 때(컴파일 포함) s / 새 프로세스처럼 캐시 파일에서 불러올 때 ms(벽시계)",
            lazy_times(LAZY_COMPILE, ("compile_s", "disk_ms")),
        ),
        (
            "그 스텝의 Value 그래프: 노드 수, 노드당 µs",
            lambda key: _cell(
                results,
                key,
                GPT,
                lambda d: (
                    f"{d['value_nodes']:,}개, {_gpt_node_us(results, key):.2f}"
                    if key == "value"
                    else DASH
                ),
            ),
        ),
    ]


def n_elements(shape: tuple[int, ...]) -> int:
    total = 1
    for n in shape:
        total *= n
    return total


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


# --- 같은 실행 안의 비율과 목표(목표 자체는 targets.py의 표) -------------------------------
def _chain_total(results: dict, key: str) -> float | None:
    data = _data(results, key, CHAIN)
    if data is None:
        return None
    return summarize(data["forward_us"]).median + summarize(data["backward_us"]).median


def _fan_median(results: dict, key: str, k: int) -> float | None:
    data = _data(results, key, FANIN)
    return None if data is None else summarize(data["ms"][str(k)]).median


def _median(results: dict, key: str, workload: str, field: str) -> float | None:
    data = _data(results, key, workload)
    return None if data is None else summarize(data[field]).median


def _affine_peak(results: dict, key: str) -> float | None:
    data = _data(results, key, AFFINE_MEMORY)
    return None if data is None else data["record_peak"]


def _deepest(results: dict, key: str) -> float | None:
    depth = results.get(key, {}).get(DEPTH)
    return None if depth is None or depth["largest"] is None else float(depth["largest"])


def _gpt_node_us(results: dict, key: str) -> float | None:
    """Value판 GPT 스텝의 노드 하나당 µs(스텝 시간 ÷ 손실 그래프의 노드 수)."""
    ms = _median(results, key, GPT, "ms")
    data = _data(results, key, GPT)
    return None if ms is None or data is None else ms * 1000 / data["value_nodes"]


def _arrays(results: dict, key: str, field: str) -> float | None:
    data = _data(results, key, MEMORY)
    if data is None or data.get(field) is None:
        return None
    return data[field] / data["array_mb"]


# targets.py의 값 이름 -> (결과, 엔진, 크기)에서 그 값을 읽는 함수. 잴 수 없으면 None.
MEASURES: dict[str, Callable[[dict, str, Sizes], float | None]] = {
    "chain_us": lambda results, key, sizes: _chain_total(results, key),
    "fanin_small_ms": lambda results, key, sizes: _fan_median(results, key, sizes.fanin_ks[0]),
    "fanin_large_ms": lambda results, key, sizes: _fan_median(results, key, sizes.fanin_ks[1]),
    "elementwise_ratio": lambda results, key, sizes: _median(results, key, ELEMENTWISE, "ratio"),
    "elementwise_const_ratio": lambda results, key, sizes: _median(
        results, key, ELEMENTWISE_CONST, "ratio"
    ),
    "affine_ms": lambda results, key, sizes: _median(results, key, AFFINE, "ms"),
    "affine_peak_mb": lambda results, key, sizes: _affine_peak(results, key),
    "deepest": lambda results, key, sizes: _deepest(results, key),
    "matmul_ratio": lambda results, key, sizes: _median(results, key, MATMUL, "ratio"),
    "mlp_us": lambda results, key, sizes: _median(results, key, MLP, "step_us"),
    "digits_ms": lambda results, key, sizes: _median(results, key, DIGITS, "epoch_ms"),
    "no_grad_arrays": lambda results, key, sizes: _arrays(results, key, "no_grad_peak"),
    "held_arrays": lambda results, key, sizes: _arrays(results, key, "held_after_backward"),
    "gpt_ms": lambda results, key, sizes: _median(results, key, GPT, "ms"),
    "conv_ms": lambda results, key, sizes: _median(results, key, CONV, "ms"),
    "cnn_ms": lambda results, key, sizes: _median(results, key, CNN, "epoch_ms"),
    "lstm_ms": lambda results, key, sizes: _median(results, key, LSTM, "step_ms"),
    "gpt_node_us": lambda results, key, sizes: _gpt_node_us(results, key),
}
# 제6고지의 지연 엔진: "lazy_<작업>_<필드>"(예: lazy_chain_numpy_ms)
for _workload, _fields in (
    (LAZY_CHAIN, ("numpy_ms", "copy_ms", "lazy_ms", "replay_ms")),
    (LAZY_CHAIN_LARGE, ("numpy_ms", "copy_ms", "lazy_ms", "replay_ms")),
    (LAZY_BACKWARD, ("eager_ms", "lazy_ms", "replay_ms")),
    (LAZY_TRAIN, ("eager_ms", "lazy_ms", "replay_ms")),
    (LAZY_COMPILE, ("compile_s", "disk_ms")),
):
    for _field in _fields:
        MEASURES[f"{_workload}_{_field}"] = lambda results, key, sizes, w=_workload, f=_field: (
            _lazy_median(results, key, w, f)
        )


def _lazy_median(results: dict, key: str, workload: str, field: str) -> float | None:
    data = _data(results, key, workload)
    return None if data is None or not data[field] else summarize(data[field]).median


# 목표의 기준 가운데 이번 실행의 크기에서 구하는 것
BOUNDS: dict[str, Callable[[Sizes], float]] = {
    "deepest_tried": lambda sizes: float(sizes.depths[-1]),
}
COMPARISONS = {"<=": ("≤", operator.le), "<": ("<", operator.lt), ">=": ("≥", operator.ge)}


def _bound_text(x: float) -> str:
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


def target_row(target: Target, results: dict, sizes: Sizes) -> list[str]:
    """목표 하나를 표의 한 줄(비교, 측정, 목표, 판정)로."""
    k1, k2 = sizes.fanin_ks
    label = target.label.format(
        n=sizes.elementwise_n, m=sizes.matmul_n, k1=k1, k2=k2, nl=sizes.lazy_large_n
    )

    def measure(which: tuple[str, str]) -> float | None:
        name, key = which
        return MEASURES[name](results, key, sizes)

    value = measure(target.value)
    if target.over is not None:
        below = measure(target.over)
        value = None if value is None or below is None else value / below

    goal, ok = DASH, None
    if target.goal is not None:
        op, bound, *words = target.goal
        if isinstance(bound, str):
            bound = BOUNDS[bound](sizes)
        symbol, compare = COMPARISONS[op]
        limit = f"{symbol} {_bound_text(bound)}"
        goal = f"{words[0]}({limit})" if words else limit + target.unit
        ok = compare(value, bound) if value is not None else None

    if value is None:
        return [label, "잴 수 없음", goal, "측정 안 됨"]
    verdict = DASH if ok is None else ("충족" if ok else "미달")
    return [label, format(value, target.spec) + target.unit, goal, verdict]


def ratio_rows(results: dict, sizes: Sizes) -> list[list[str]]:
    return [target_row(target, results, sizes) for target in TARGETS]


# --- 전체 문서 ------------------------------------------------------------------------
def render(results: dict, keys: list[str], sizes: Sizes, env: dict, settings: dict) -> str:
    versions = [f"NumPy {env['numpy']}"]
    for name, label in (("torch", "PyTorch"), ("micrograd", "micrograd"), ("dezero", "dezero")):
        versions.append(f"{label} {env[name]}" if env[name] else f"{label} 설치 안 됨")
    lines = [
        f"- 측정: {env['date']}, `{settings['command']}`",
        f"- 기계: {env['cpu']}, 벡터 확장 {env.get('simd', '기록 없음')}, {env['cores']}, {env['os']}",
        f"- 파이썬: {env['python']}; " + ", ".join(versions),
        f"- 코드: 커밋 {env['commit']}",
        f"- 부하(load average 1/5/15분): 시작 {env['load_before']}, 끝 {env['load_after']}",
        f"- 엔진×작업마다 하위 프로세스 하나, 시간 한도 {settings['timeout']:g} s; "
        f"반복 횟수: 0차원 사슬 {sizes.chain_repeats}회(데우기 {sizes.chain_warmup}회 뒤), "
        f"가지 {sizes.fanin_min_repeats}~{sizes.fanin_max_repeats}회, "
        f"원소별 연산 {sizes.elementwise_repeats}회(NumPy와 번갈아)",
    ]
    if settings.get("quick"):
        lines.append(
            "- **빠른 점검(`--quick`)**: 크기를 줄여 돌렸으므로 목표와 견줄 수 있는 값이 아닙니다."
        )
    if settings.get("skipped"):
        lines.append("- 재지 않은 엔진: " + "; ".join(settings["skipped"]))

    header = ["작업"] + [f"`{key}`" for key in keys]
    body = [[label] + [cell(key) for key in keys] for label, cell in workload_rows(results, sizes)]
    lines += ["", "**작업별 측정값** (중앙값, 괄호 안은 사분위 범위 Q1–Q3)", ""]
    lines.append(markdown_table(header, body))
    lines += ["", "**같은 실행 안에서 구한 비율과 목표**", ""]
    lines.append(markdown_table(["비교", "측정", "목표", "판정"], ratio_rows(results, sizes)))
    lines += ["", *legend(results, keys)]
    return "\n".join(lines) + "\n"


def legend(results: dict, keys: list[str]) -> list[str]:
    out = ["엔진:", ""]
    out += [f"- `{key}`: {ENGINES[key].title}" for key in keys]
    out += [
        "",
        "읽는 법:",
        "",
        "- —: 그 엔진에 해당 기능이 없습니다(7·8단계는 입력이 하나인 함수만 있어 가지 작업을 "
        "만들 수 없고, 원소별 연산 작업은 곱·뺄셈·제곱·부호·exp가 모두 있는 엔진만 잽니다; "
        "`no_grad`는 18단계부터 있습니다).",
        "- 7·8단계의 `y * c`는 입력 하나짜리 상수 곱 함수로, 16·18단계의 곱셈은 그 단계의 "
        "`Function`을 상속한 두 입력 곱셈으로 벤치마크가 정의해 씁니다.",
        "- 재귀 한도는 파이썬 기본값 그대로입니다. 실패는 그 종류(RecursionError, 시간 초과, "
        "비정상 종료)로 적습니다.",
        "- 메모리는 tracemalloc으로 잽니다(입력 배열은 세지 않음). † 표시는 tracemalloc이 보지 "
        "못하는 PyTorch를 상주 메모리(RSS)의 증가로 잰 값입니다(데우기 한 번 뒤, "
        "`MALLOC_MMAP_THRESHOLD_=65536`).",
        "- 시간은 벽시계가 아니라 그 프로세스가 쓴 CPU 시간(사용자+커널)입니다. 1000×1000 작업은 "
        "glibc 할당기가 큰 배열을 힙에서 주고 운영 체제에 돌려주지 않도록 고정하고 잽니다"
        "(`MALLOC_MMAP_THRESHOLD_=33554432`, `MALLOC_TRIM_THRESHOLD_=4294967296`). 행렬 곱 "
        "사슬도 같고, 행렬 곱 사슬과 두 층 신경망은 BLAS를 스레드 하나로 둡니다"
        "(`OPENBLAS_NUM_THREADS=1`; PyTorch도 스레드 하나).",
        "- 두 층 신경망은 43단계의 sin 회귀(x 100개, 1→10→1, sigmoid, 평균 제곱 오차, 학습률 0.2)"
        "입니다. 엔진마다 그 엔진의 관용구로 순전파, 미분값 지우기, 역전파, 갱신을 합니다(DeZero는 "
        "`F.linear`, `F.sigmoid`; PyTorch는 `torch.addmm`). PyPI의 `dezero` 0.0.13은 NumPy 1.24 "
        "이후 없어진 `np.int`를 쓰므로, 어댑터가 가져오기 전에 그 프로세스에서만 `np.int = int`를 "
        "둡니다.",
        "- 손글씨 숫자 한 에포크는 51단계의 학습입니다. 저장소의 숫자 8,000장(float32, 0~1)을 미리 "
        "같은 순서의 배치 100개씩으로 나눠 세 엔진에 똑같이 주고, 같은 처음 매개변수에서 엔진마다 그 "
        "프레임워크의 모델, SGD 옵티마이저(학습률 0.1), 교차 엔트로피로 80스텝을 학습합니다"
        "(tinygrad_ko: `models.MLP`, `optimizers.SGD`, `softmax_cross_entropy`; DeZero: "
        "`models.MLP`, `optimizers.SGD`, `F.softmax_cross_entropy`; PyTorch: `nn.Sequential`, "
        "`optim.SGD`, `F.cross_entropy`). 데이터 로더는 재지 않습니다. 재기 전에 첫 스텝의 결과를 "
        "NumPy(float64)로 손수 유도한 값과 비교합니다.",
    ]
    check = rss_check_line(results, keys)
    if check:
        out.append(check)
    return out


def rss_check_line(results: dict, keys: list[str]) -> str | None:
    """tracemalloc과 RSS가 같은 값을 주는지: tracemalloc으로 잰 첫 엔진의 RSS 값."""
    fields = ("record_peak", "no_grad_peak", "backward_peak", "held_after_backward")
    for key in keys:
        data = _data(results, key, MEMORY)
        if data is None or data["method"] != "tracemalloc":
            continue
        rss = data.get("rss_check", {})
        if "error" in rss or not rss:
            return None
        shown = " / ".join(DASH if rss.get(f) is None else f"{rss[f]:.1f}" for f in fields)
        return (
            f"- 두 방법이 맞는지: `{key}`를 RSS 방법으로도 재면 기록 / no_grad / 역전파 중 / "
            f"남은 MB가 {shown}입니다."
        )
    return None
