"""High Card's options."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class HighCardConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rounds: int = Field(3, ge=1, le=4, description="cards dealt to each player, one round each")
