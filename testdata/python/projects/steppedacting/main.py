from agents import QAgent, Runner, Squad
from loop import run_episodes, run_quietly


def drive_runner(env, steps):
    runner = Runner()
    state = env.reset()
    for _ in range(steps):
        # Runner.act calls QAgent.greedy: every step, through the method.
        state, reward, done, _ = env.step(runner.act(state))


if __name__ == "__main__":
    env = None
    agent = QAgent()
    run_episodes(env, agent, 10)
    run_quietly(env, agent, 10)
    drive_runner(env, 10)
    print(agent.peek(env.reset()))
    squad = Squad(2)
    for _ in range(10):
        print(squad.choose_action([env.reset(), env.reset()]))
