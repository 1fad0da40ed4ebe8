"""micrograd 방식의 스칼라 `Value`와 그 위의 신경망(tinygrad_ko.micrograd.value, nn, datasets)의 테스트입니다."""
