"""측정 결과를 마크다운으로: 환경 설명, 작업별 표, 같은 실행 안에서 구한 비율과 목표, 각주.

`results[엔진][작업]`은 하위 프로세스가 돌려준 결과(payload)입니다.
상태는 "ok"(측정값은 "data"), "error"(파이썬 예외, "kind"), "timeout", "crash" 가운데 하나입니다.
가장 깊은 사슬(`depth`)만은 실행기가 길이별 결과를 모은 {"largest", "failure", "tried"}입니다.
"""

from __future__ import annotations

from collections.abc import Callable

from engines import CHAIN, DEPTH, ELEMENTWISE, ENGINES, FANIN, MEMORY
from stats import Summary, summarize
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
    n = sizes.elementwise_n
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
            f"{n}×{n} float64 원소별 연산 20개, 순전파+역전파: NumPy만으로 한 같은 계산의 몇 배",
            lambda key: _cell(results, key, ELEMENTWISE, lambda d: spread(summarize(d["ratio"]))),
        ),
        (
            "같은 작업에 걸린 시간, ms(엔진 / NumPy)",
            lambda key: _cell(results, key, ELEMENTWISE, times),
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


# --- 같은 실행 안의 비율 ----------------------------------------------------------------
def _chain_total(results: dict, key: str) -> float | None:
    data = _data(results, key, CHAIN)
    if data is None:
        return None
    return summarize(data["forward_us"]).median + summarize(data["backward_us"]).median


def _fan_median(results: dict, key: str, k: int) -> float | None:
    data = _data(results, key, FANIN)
    return None if data is None else summarize(data["ms"][str(k)]).median


def _arrays(results: dict, field: str) -> float | None:
    data = _data(results, "tinygrad_ko", MEMORY)
    if data is None or data.get(field) is None:
        return None
    return data[field] / data["array_mb"]


def _ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a / b


def ratio_rows(results: dict, sizes: Sizes) -> list[list[str]]:
    k1, k2 = sizes.fanin_ks
    n = sizes.elementwise_n
    final_ew = _data(results, "tinygrad_ko", ELEMENTWISE)
    torch_ew = _data(results, "torch", ELEMENTWISE)
    ew_final = None if final_ew is None else summarize(final_ew["ratio"]).median
    ew_torch = None if torch_ew is None else summarize(torch_ew["ratio"]).median
    depth = results.get("tinygrad_ko", {}).get(DEPTH)
    deepest = None
    if depth is not None and depth["largest"] is not None:
        deepest = float(depth["largest"])
    big = float(sizes.depths[-1])

    # (설명, 값, 값을 적는 방법, 목표 문구, 목표를 만족하는지 판단하는 함수)
    specs = [
        (
            "0차원 사슬 순전파+역전파 µs/연산: tinygrad_ko ÷ step24(책의 엔진)",
            _ratio(_chain_total(results, "tinygrad_ko"), _chain_total(results, "step24")),
            "{:.2f}배",
            "≤ 0.6배",
            lambda v: v <= 0.6,
        ),
        (
            "0차원 사슬 순전파+역전파 µs/연산: tinygrad_ko ÷ torch",
            _ratio(_chain_total(results, "tinygrad_ko"), _chain_total(results, "torch")),
            "{:.2f}배",
            "< 1배",
            lambda v: v < 1,
        ),
        (
            f"가지 K = {k2:,} 역전파: step16 ÷ tinygrad_ko(몇 배 빠른가)",
            _ratio(_fan_median(results, "step16", k2), _fan_median(results, "tinygrad_ko", k2)),
            "{:.0f}배",
            "≥ 30배",
            lambda v: v >= 30,
        ),
        (
            f"가지 K = {k1:,} → {k2:,}: tinygrad_ko 역전파 시간의 배율",
            _ratio(
                _fan_median(results, "tinygrad_ko", k2), _fan_median(results, "tinygrad_ko", k1)
            ),
            "{:.1f}배",
            "≤ 13배",
            lambda v: v <= 13,
        ),
        (
            f"{n}×{n} 원소별 연산 20개: tinygrad_ko ÷ NumPy",
            ew_final,
            "{:.2f}배",
            "≤ 1.3배",
            lambda v: v <= 1.3,
        ),
        (
            f"{n}×{n} 원소별 연산 20개: tinygrad_ko ÷ torch(참고)",
            _ratio(ew_final, ew_torch),
            "{:.2f}배",
            DASH,
            None,
        ),
        (
            "tinygrad_ko의 역전파가 성공하는 가장 깊은 사슬",
            deepest,
            "{:,.0f}",
            f"≥ {big:,.0f}",
            lambda v: v >= big,
        ),
        (
            "tinygrad_ko `no_grad` 순전파의 최대 메모리, 배열 개수",
            _arrays(results, "no_grad_peak"),
            "{:.2f}개",
            "약 2개(≤ 2.5)",
            lambda v: v <= 2.5,
        ),
        (
            "tinygrad_ko 역전파 뒤 `y`를 쥔 채 남은 메모리, 배열 개수",
            _arrays(results, "held_after_backward"),
            "{:.2f}개",
            "몇 개(≤ 4)",
            lambda v: v <= 4,
        ),
        (
            "0차원 사슬 순전파+역전파 노드당 시간: Value ÷ micrograd",
            _ratio(_chain_total(results, "value"), _chain_total(results, "micrograd")),
            "{:.2f}배",
            "≤ 1배",
            lambda v: v <= 1,
        ),
    ]
    rows = []
    for label, value, fmt, target, ok in specs:
        if value is None:
            rows.append([label, "잴 수 없음", target, "측정 안 됨"])
            continue
        verdict = DASH if ok is None else ("충족" if ok(value) else "미달")
        rows.append([label, fmt.format(value), target, verdict])
    return rows


# --- 전체 문서 ------------------------------------------------------------------------
def render(results: dict, keys: list[str], sizes: Sizes, env: dict, settings: dict) -> str:
    versions = [f"NumPy {env['numpy']}"]
    for name, label in (("torch", "PyTorch"), ("micrograd", "micrograd")):
        versions.append(f"{label} {env[name]}" if env[name] else f"{label} 설치 안 됨")
    lines = [
        f"- 측정: {env['date']}, `{settings['command']}`",
        f"- 기계: {env['cpu']}, {env['cores']}, {env['os']}",
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
        "(`MALLOC_MMAP_THRESHOLD_=33554432`, `MALLOC_TRIM_THRESHOLD_=4294967296`).",
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
