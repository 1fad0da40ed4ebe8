"""functions 테스트."""
