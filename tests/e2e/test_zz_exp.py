import json
from typing import Any


async def test_exp(world: Any) -> None:
    bot = world.env.bot
    remote = await bot.http.get_global_commands(bot.application_id)
    local = [c.to_dict(bot.tree) for c in bot.tree._get_all_commands()]
    print(json.dumps(remote[0], indent=1)[:1500])
    print(json.dumps([x for x in local if x["name"] == remote[0]["name"]][0], indent=1)[:1500])
