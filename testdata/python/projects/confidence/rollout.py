def rollout(agent, env, steps):
    obs = env.reset()
    for _ in range(steps):
        obs = env.step(agent.act(obs))
    return obs


def plan(agent, env, steps):
    obs = env.reset()
    for _ in range(steps):
        obs = env.step(agent.decide(obs))
    return obs
