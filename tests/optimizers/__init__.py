"""optimizers 테스트."""
