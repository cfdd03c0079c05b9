def rollout(agent, env, steps):
    obs = env.reset()
    for _ in range(steps):
        obs = env.step(agent.act(obs))
    return obs
