"""Events between services that would otherwise hold each other: the hub is built before them, each
service that tells gets it in its constructor, and each that listens connects once, at composition."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Signal(Generic[T]):
    """A plain call (``signal(value)``) that every connected listener hears, in the order connected."""

    def __init__(self) -> None:
        self._listeners: list[Callable[[T], None]] = []

    def connect(self, listener: Callable[[T], None]) -> None:
        self._listeners.append(listener)

    def __call__(self, value: T) -> None:
        for listener in self._listeners:
            listener(value)


class AsyncSignal(Generic[T]):
    """An awaited call (``await signal(value)``) that every connected listener hears, one after another."""

    def __init__(self) -> None:
        self._listeners: list[Callable[[T], Awaitable[None]]] = []

    def connect(self, listener: Callable[[T], Awaitable[None]]) -> None:
        self._listeners.append(listener)

    async def __call__(self, value: T) -> None:
        for listener in self._listeners:
            await listener(value)
