"""tools 테스트."""
