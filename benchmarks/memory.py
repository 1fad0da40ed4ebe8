"""메모리 재기: 작업이 새로 할당한 바이트의 현재값과 최댓값을 돌려주는 두 가지 탐침(probe).

- `TracemallocProbe`: NumPy는 배열 데이터를 할당할 때 tracemalloc에 알리므로, 추적을 켠 뒤
  할당한 것(배열과 파이썬 객체)만 정확히 셉니다. 추적을 켜기 전에 만든 입력은 세지 않습니다.
- `RssProbe`: PyTorch처럼 자기 할당기를 쓰는 라이브러리는 tracemalloc이 보지 못하므로,
  프로세스의 상주 메모리(RSS)를 잽니다. 리눅스에서 `/proc/self/clear_refs`에 5를 쓰면 최대
  RSS(VmHWM)를 지금 값으로 되돌릴 수 있어서 구간마다 최댓값을 따로 잴 수 있습니다.
  큰 배열이 해제될 때 RSS도 줄어들도록, 실행기는 이 작업의 프로세스에
  `MALLOC_MMAP_THRESHOLD_`를 작게 주어 큰 할당이 늘 mmap으로 가게 합니다.
  처음 쓰는 코드 페이지도 RSS에 잡히므로, 재기 전에 같은 작업을 한 번 돌려 데워 둡니다.
"""

from __future__ import annotations

import re
import tracemalloc
from pathlib import Path

MB = 1_000_000  # 표의 MB는 10^6 바이트입니다(float64 100x100x100 배열 하나 = 8.0 MB).


class TracemallocProbe:
    """`start()` 뒤에 할당된 메모리만 셉니다."""

    def start(self) -> None:
        tracemalloc.start()

    def reset_peak(self) -> None:
        tracemalloc.reset_peak()

    def current_mb(self) -> float:
        return tracemalloc.get_traced_memory()[0] / MB

    def peak_mb(self) -> float:
        return tracemalloc.get_traced_memory()[1] / MB

    def stop(self) -> None:
        tracemalloc.stop()


class RssProbe:
    """`start()` 때의 RSS를 0으로 보고, 그 뒤의 RSS와 최대 RSS를 잽니다(리눅스 전용)."""

    _STATUS = Path("/proc/self/status")
    _CLEAR_REFS = Path("/proc/self/clear_refs")

    def __init__(self) -> None:
        if not self._CLEAR_REFS.exists():
            raise OSError(
                "RSS 최댓값을 되돌릴 /proc/self/clear_refs 가 없습니다(리눅스가 아닌 듯합니다). "
                "이 엔진의 메모리는 잴 수 없습니다."
            )
        self._base_kb = 0

    def _read_kb(self, field: str) -> int:
        match = re.search(rf"^{field}:\s+(\d+) kB", self._STATUS.read_text(), re.MULTILINE)
        if match is None:
            raise OSError(f"/proc/self/status 에서 {field} 항목을 찾지 못했습니다.")
        return int(match.group(1))

    def start(self) -> None:
        self.reset_peak()
        self._base_kb = self._read_kb("VmRSS")

    def reset_peak(self) -> None:
        self._CLEAR_REFS.write_text("5")

    def current_mb(self) -> float:
        return (self._read_kb("VmRSS") - self._base_kb) * 1024 / MB

    def peak_mb(self) -> float:
        return (self._read_kb("VmHWM") - self._base_kb) * 1024 / MB

    def stop(self) -> None:
        """RSS는 따로 끌 것이 없습니다."""


def make_probe(method: str) -> TracemallocProbe | RssProbe:
    if method == "tracemalloc":
        return TracemallocProbe()
    if method == "rss":
        return RssProbe()
    raise ValueError(f"알 수 없는 메모리 측정 방법: {method!r}. 'tracemalloc' 또는 'rss'를 주세요.")
