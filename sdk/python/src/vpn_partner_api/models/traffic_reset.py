from enum import StrEnum


class TrafficReset(StrEnum):
    DAY = "day"
    MONTH = "month"
    MONTH_ROLLING = "month_rolling"
    NO_RESET = "no_reset"
    WEEK = "week"

    def __str__(self) -> str:
        return str(self.value)
