from enum import IntEnum


class SubscriptionTrafficUsedEventDataThresholdPercent(IntEnum):
    VALUE_80 = 80
    VALUE_100 = 100

    def __str__(self) -> str:
        return str(self.value)
