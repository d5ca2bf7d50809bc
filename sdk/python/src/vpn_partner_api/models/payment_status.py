from enum import StrEnum


class PaymentStatus(StrEnum):
    EXPIRED = "expired"
    FAILED = "failed"
    PENDING = "pending"
    SUCCEEDED = "succeeded"

    def __str__(self) -> str:
        return str(self.value)
