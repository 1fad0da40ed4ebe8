"""명령줄: `python3 -m tinygrad_ko.gpt train …`으로 학습하고 `… sample …`로 이름을 뽑습니다."""

from .cli import main

main()
