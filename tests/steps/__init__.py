"""단계별 스냅숏(tinygrad_ko.steps)의 테스트입니다."""
